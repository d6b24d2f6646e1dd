import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Endpoint } from "@/lib/api/endpoint";
import { allEndpoints } from "@/lib/openapi/all-endpoints";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { request } from "@/tests/helpers/api";
import { INSTANCE_KEY } from "@/tests/helpers/factories";

/** ADMIN_API.md "Errors", checked on every endpoint of the contract. */

const pathWithFakeIds = (e: Endpoint) => "/api/v1" + e.path.replace(/\{(\w+)\}/g, "missing-$1");
const jsonBody = (e: Endpoint) => e.body && e.bodyMediaType !== "multipart/form-data";

/** A body whose every declared field has the wrong type. */
function wronglyTypedBody(schema: z.ZodType): unknown {
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape;
  if (!shape) return [1, 2, 3];
  return Object.fromEntries(Object.keys(shape).map((k) => [k, k === "name" ? { not: "a string" } : 12345]));
}

/** The answer's status is one the OpenAPI document lists for the operation (a generated client types it). */
let documentPaths: Record<string, Record<string, { responses: object }>> | undefined;
const documentedStatuses = (e: Endpoint) =>
  Object.keys((documentPaths ??= buildOpenApiDocument().paths as NonNullable<typeof documentPaths>)[e.path][e.method.toLowerCase()].responses);
const expectDocumented = (e: Endpoint, status: number) => expect(documentedStatuses(e), `${e.method} ${e.path} documents ${status}`).toContain(String(status));

// Every endpoint gets an unknown key from the same (in-process, address-less) client: more
// failures than the per-address budget of unknown keys, which is not what this file tests.
process.env.BEARER_MAX_FAILURES_PER_IP = "100000";

describe("every endpoint answers problem+json errors as the contract says", () => {
  for (const e of allEndpoints()) {
    const label = `${e.method} ${e.path}`;

    it(`${label}: no credential → 401 with WWW-Authenticate`, async () => {
      const res = await request(e.method, pathWithFakeIds(e), null, e.body ? {} : undefined);
      expect(res.status).toBe(401);
      expect(res.headers.get("content-type")).toContain("application/problem+json");
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(res.body).toMatchObject({ status: 401, title: expect.any(String), detail: expect.any(String) });
      expectDocumented(e, res.status);
    });

    it(`${label}: unknown bearer → 401`, async () => {
      const res = await request(e.method, pathWithFakeIds(e), "sb_not-a-real-key", e.body ? {} : undefined);
      expect(res.status).toBe(401);
    });

    if (jsonBody(e)) {
      it(`${label}: malformed JSON → 400`, async () => {
        const res = await request(e.method, pathWithFakeIds(e), INSTANCE_KEY, undefined, {
          raw: '{"name": "unterminated',
          headers: { "content-type": "application/json" },
        });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ status: 400, detail: expect.stringContaining("JSON") });
        expectDocumented(e, res.status);
      });

      it(`${label}: another content type → 415`, async () => {
        const res = await request(e.method, pathWithFakeIds(e), INSTANCE_KEY, undefined, { raw: "{}", headers: { "content-type": "text/plain" } });
        expect(res.status).toBe(415);
        expectDocumented(e, res.status);
      });

      it(`${label}: wrong types → 422 naming the fields`, async () => {
        const res = await request(e.method, pathWithFakeIds(e), INSTANCE_KEY, wronglyTypedBody(e.body!));
        expect(res.status).toBe(422);
        expect(res.body.errors.length).toBeGreaterThan(0);
        expect(res.body.errors[0]).toMatchObject({ path: expect.any(String), message: expect.any(String) });
        expectDocumented(e, res.status);
      });
    }

    if (/\{\w+\}/.test(e.path) && e.method === "GET") {
      it(`${label}: unknown id → 404`, async () => {
        const res = await request(e.method, pathWithFakeIds(e), INSTANCE_KEY);
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ status: 404 });
        expectDocumented(e, res.status);
      });
    }
  }
});
