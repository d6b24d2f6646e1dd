import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { CLIENT_TYPES_FILE, clientTypesSource, servedOpenApiText } from "@/scripts/lib/client-types";

/**
 * Issue 27: packages/client's types are generated from the served OpenAPI document; an endpoint
 * spec changed without `npm run client:generate` leaves the committed types stale, and this fails.
 */
describe("packages/client types", () => {
  it("are what npm run client:generate makes of the served document", async () => {
    const generated = await clientTypesSource(JSON.parse(await servedOpenApiText()));
    const committed = fs.readFileSync(CLIENT_TYPES_FILE, "utf8");
    // Not toBe on 9,000 lines: say where they part, and what to run.
    const at = [...generated].findIndex((c, i) => c !== committed[i]);
    const where = at < 0 && generated.length === committed.length ? null : committed.slice(0, Math.max(at, 0)).split("\n").length;
    expect(where, `${CLIENT_TYPES_FILE} differs from the document from line ${where}: run npm run client:generate`).toBeNull();
  });
});
