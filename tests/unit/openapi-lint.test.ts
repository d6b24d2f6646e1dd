import { execFile } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { GET as serveOpenApiDocument } from "@/app/api/v1/openapi.json/route";

/**
 * Issue 27: `npx @redocly/cli lint` of the served document gives 0 errors and 0 warnings, with
 * the repository's redocly.yaml, which may turn off only rules README.md names and justifies.
 * The document is the route's own answer, built in-process: no server, no build.
 */

const run = promisify(execFile);
const redoclyCli = createRequire(import.meta.url).resolve("@redocly/cli/bin/cli.js");

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; severity: string; message: string; location?: { pointer?: string }[] }[];
}

describe("npx @redocly/cli lint of GET /api/v1/openapi.json", () => {
  it("finds no error and no warning", { timeout: 90_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "openapi-lint-"));
    try {
      const file = path.join(dir, "openapi.json");
      fs.writeFileSync(file, await serveOpenApiDocument().text());
      const { stdout } = await run(process.execPath, [redoclyCli, "lint", file, "--config", "redocly.yaml", "--format", "json"], {
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
        maxBuffer: 64 * 1024 * 1024,
      });
      const report = JSON.parse(stdout) as LintReport;
      const problems = report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location?.[0]?.pointer ?? "?"}: ${p.message}`);
      expect(problems).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("turns off only rules that docs/admin-api.md ('Linting the document') names, with its reason", () => {
    const config = parse(fs.readFileSync("redocly.yaml", "utf8")) as { extends?: string[]; rules?: Record<string, unknown> };
    expect(config.extends).toEqual(["recommended"]);
    const readme = fs.readFileSync("docs/admin-api.md", "utf8");
    expect(readme).toContain("### Linting the document");
    const section = readme.slice(readme.indexOf("### Linting the document"));
    const relaxed = Object.entries(config.rules ?? {}).filter(([, level]) => level !== "error" && level !== "warn").map(([rule]) => rule);
    for (const rule of relaxed) expect(section, `docs/admin-api.md names redocly rule ${rule}`).toMatch(new RegExp("`" + rule + "`: \\S"));
  });
});
