import fs from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { allEndpoints } from "@/lib/openapi/all-endpoints";
import { request } from "@/tests/helpers/api";

/** ADMIN_API.md: "The served description is GET /api/v1/openapi.json (OpenAPI 3.1…)". */

const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const routeModules = import.meta.glob<Record<string, unknown>>("/app/api/v1/**/route.ts");

/** Every (method, path) a route file under app/api/v1 serves, in OpenAPI path syntax. */
async function servedOperations(): Promise<string[]> {
  const operations: string[] = [];
  for (const [file, load] of Object.entries(routeModules)) {
    const route = path.dirname(file.replace("/app/api/v1", "")).replace(/\[(\w+)\]/g, "{$1}");
    if (route === "/openapi.json") continue;
    const mod = await load();
    for (const m of HTTP_METHODS) if (typeof mod[m] === "function") operations.push(`${m} ${route}`);
  }
  return operations.sort();
}

describe("GET /api/v1/openapi.json", () => {
  it("validates as OpenAPI 3.1", async () => {
    const res = await request("GET", "/api/v1/openapi.json", null);
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\.1\./);
    const result = await new Validator().validate(res.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("lists exactly the operations the route files serve", async () => {
    const res = await request("GET", "/api/v1/openapi.json", null);
    const documented = Object.entries(res.body.paths as Record<string, Record<string, unknown>>)
      .flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`))
      .sort();
    expect(documented).toEqual(await servedOperations());
    expect(documented).toHaveLength(allEndpoints().length);
  });

  it("lists every endpoint of the contract", async () => {
    const contract = fs.readFileSync(path.join(process.cwd(), "..", "shared", "ADMIN_API.md"), "utf8");
    const rows = [...contract.matchAll(/`((?:GET|POST|PUT|PATCH|DELETE)(?:\/(?:GET|POST|PUT|PATCH|DELETE))*) \/api\/v1([^`]*)`/g)];
    const wanted = rows
      .flatMap(([, methods, p]) => methods.split("/").map((m) => `${m} ${p.split("?")[0]}`))
      .filter((op) => op !== "GET /openapi.json");
    const res = await request("GET", "/api/v1/openapi.json", null);
    const documented = new Set(
      Object.entries(res.body.paths as Record<string, Record<string, unknown>>).flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`)),
    );
    expect(wanted.length).toBeGreaterThanOrEqual(45);
    expect(wanted.filter((op) => !documented.has(op))).toEqual([]);
  });
});

describe("OpenAPI: optimistic concurrency", () => {
  it("documents the ETag answer header, the If-Match request header and the 412 answer", async () => {
    const res = await request("GET", "/api/v1/openapi.json", null);
    const patchRole = res.body.paths["/roles/{roleId}"].patch;
    const ifMatch = patchRole.parameters.find((p: { in: string; name: string }) => p.in === "header" && p.name === "If-Match");
    expect(ifMatch).toBeDefined();
    expect(ifMatch.required).not.toBe(true);
    expect(patchRole.responses["412"].content["application/problem+json"]).toBeDefined();
    expect(Object.keys(patchRole.responses["200"].headers)).toEqual(["ETag"]);
    expect(Object.keys(res.body.paths["/roles/{roleId}"].get.responses["200"].headers)).toEqual(["ETag"]);
    expect(res.body.paths["/connectors/{connectorId}/graph"].put.responses["412"]).toBeDefined();
    expect(res.body.paths["/roles/{roleId}"].delete.parameters).toContainEqual(expect.objectContaining({ in: "header", name: "If-Match" }));
  });
});
