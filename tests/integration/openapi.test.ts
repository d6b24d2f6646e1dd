import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { allEndpoints } from "@/lib/openapi/all-endpoints";
import { request } from "@/tests/helpers/api";

/** ADMIN_API.md: "The served description is GET /api/v1/openapi.json (OpenAPI 3.1…)". */

interface OpenApiOperation {
  summary?: string;
  parameters?: { in: string; name: string }[];
  requestBody?: unknown;
}

/**
 * The operations the admin API contract (ADMIN_API.md, kept outside this repository) lists: the
 * API may grow, but none of these may disappear or move.
 */
const CONTRACT_OPERATIONS = [
  "POST /users",
  "POST /orgs",
  "GET /orgs",
  "GET /orgs/{orgId}",
  "PATCH /orgs/{orgId}",
  "DELETE /orgs/{orgId}",
  "POST /orgs/{orgId}/members",
  "PATCH /orgs/{orgId}/members/{userId}",
  "DELETE /orgs/{orgId}/members/{userId}",
  "POST /orgs/{orgId}/workspaces",
  "GET /workspaces/{workspaceId}",
  "PATCH /workspaces/{workspaceId}",
  "DELETE /workspaces/{workspaceId}",
  "POST /workspaces/{workspaceId}/members",
  "PATCH /workspaces/{workspaceId}/members/{userId}",
  "DELETE /workspaces/{workspaceId}/members/{userId}",
  "POST /orgs/{orgId}/roles",
  "GET /roles/{roleId}",
  "PATCH /roles/{roleId}",
  "DELETE /roles/{roleId}",
  "POST /orgs/{orgId}/connectors",
  "GET /connectors/{connectorId}",
  "PATCH /connectors/{connectorId}",
  "DELETE /connectors/{connectorId}",
  "POST /connectors/{connectorId}/reload",
  "POST /connectors/{connectorId}/resources",
  "GET /connectors/{connectorId}/resources",
  "PATCH /resources/{resourceId}",
  "DELETE /resources/{resourceId}",
  "PUT /connectors/{connectorId}/graph",
  "POST /workspaces/{workspaceId}/servers",
  "GET /servers/{serverId}",
  "PATCH /servers/{serverId}",
  "DELETE /servers/{serverId}",
  "PUT /servers/{serverId}/connectors",
  "POST /workspaces/{workspaceId}/skills",
  "PATCH /skills/{skillId}",
  "DELETE /skills/{skillId}",
  "POST /workspaces/{workspaceId}/api-keys",
  "GET /workspaces/{workspaceId}/api-keys",
  "DELETE /api-keys/{keyId}",
  "POST /workspaces/{workspaceId}/files",
  "GET /workspaces/{workspaceId}/files",
  "GET /files/{fileId}",
  "PATCH /files/{fileId}",
  "DELETE /files/{fileId}",
  "GET /files/{fileId}/content",
  "GET /orgs/{orgId}/audit",
];

const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const routeModules = import.meta.glob<Record<string, unknown>>("/app/api/v1/**/route.ts");

/** Every (method, path) a route file under app/api/v1 serves, in OpenAPI path syntax. */
async function servedOperations(): Promise<string[]> {
  const operations: string[] = [];
  for (const [file, load] of Object.entries(routeModules)) {
    const route = path.dirname(file.replace("/app/api/v1", "")).replace(/\[(\w+)\]/g, "{$1}");
    // The documents describing the API (this one, and the configuration document's JSON Schema) are not operations of it.
    if (route === "/openapi.json" || route === "/config.schema.json") continue;
    // The catch-all answering 404 for a path no operation serves is not an operation either.
    if (route === "/[...unknownPath]") continue;
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

  it("uses only formats JSON Schema and OpenAPI define, here and in the configuration document's schema (a validator in strict mode refuses others)", async () => {
    // JSON Schema 2020-12 §7.3 and the OpenAPI 3.1 format registry.
    const known = new Set(["date-time", "date", "time", "duration", "email", "idn-email", "hostname", "idn-hostname", "ipv4", "ipv6", "uri", "uri-reference", "iri", "iri-reference", "uuid", "uri-template", "json-pointer", "relative-json-pointer", "regex", "int32", "int64", "float", "double", "password", "byte", "binary"]);
    for (const path of ["/api/v1/openapi.json", "/api/v1/config.schema.json"]) {
      const formats = [...JSON.stringify((await request("GET", path, null)).body).matchAll(/"format":"([^"]+)"/g)].map((m) => m[1]);
      expect({ path, unknown: [...new Set(formats)].filter((f) => !known.has(f)) }).toEqual({ path, unknown: [] });
    }
  });

  it("lists exactly the operations the route files serve", async () => {
    const res = await request("GET", "/api/v1/openapi.json", null);
    const documented = Object.entries(res.body.paths as Record<string, Record<string, unknown>>)
      .flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`))
      .sort();
    expect(documented).toEqual(await servedOperations());
    expect(documented).toHaveLength(allEndpoints().length);
  });

  it("documents every endpoint of the registry with its summary, parameters and body", async () => {
    const res = await request("GET", "/api/v1/openapi.json", null);
    const paths = res.body.paths as Record<string, Record<string, OpenApiOperation>>;
    for (const e of allEndpoints()) {
      const operation = paths[e.path]?.[e.method.toLowerCase()];
      expect(operation, `${e.method} ${e.path}`).toBeDefined();
      expect(operation.summary).toBe(e.summary);
      const pathParams = [...e.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name).sort();
      const documentedParams = (operation.parameters ?? []).filter((p) => p.in === "path").map((p) => p.name).sort();
      expect(documentedParams, `${e.method} ${e.path} path parameters`).toEqual(pathParams);
      expect(Boolean(operation.requestBody), `${e.method} ${e.path} request body`).toBe(Boolean(e.body || e.bodyMediaType));
    }
  });

  it("keeps every operation of the admin API contract", async () => {
    const res = await request("GET", "/api/v1/openapi.json", null);
    const documented = new Set(
      Object.entries(res.body.paths as Record<string, Record<string, unknown>>).flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`)),
    );
    expect(CONTRACT_OPERATIONS.filter((op) => !documented.has(op))).toEqual([]);
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

interface DocumentedOperation {
  operationId?: string;
  tags?: string[];
  responses: Record<string, { content?: Record<string, unknown> }>;
}

/** Every operation of the served document, as "METHOD /path" → operation. */
async function documentedOperations(): Promise<[string, DocumentedOperation][]> {
  const res = await request("GET", "/api/v1/openapi.json", null);
  return Object.entries(res.body.paths as Record<string, Record<string, DocumentedOperation>>).flatMap(([p, item]) =>
    Object.entries(item).map(([m, op]): [string, DocumentedOperation] => [`${m.toUpperCase()} ${p}`, op]),
  );
}

/** Issue 27: operations a generated client (packages/client) can name, group and expect errors of. */
describe("OpenAPI: operationId, tags and errors of every operation", () => {
  it("gives every operation its own verb-first camelCase operationId", async () => {
    const operations = await documentedOperations();
    const missing = operations.filter(([, op]) => !op.operationId).map(([key]) => key);
    expect(missing).toEqual([]);
    const notVerbFirst = operations.filter(([, op]) => !/^(list|get|create|update|delete|add|remove|set|revoke|upload|export|import|reload|test|accept|decline|verify|plan|apply|approve)[A-Z][A-Za-z]*$/.test(op.operationId!));
    expect(notVerbFirst.map(([key, op]) => `${key}: ${op.operationId}`)).toEqual([]);
    const byId = new Map<string, string[]>();
    for (const [key, op] of operations) byId.set(op.operationId!, [...(byId.get(op.operationId!) ?? []), key]);
    expect([...byId].filter(([, keys]) => keys.length > 1)).toEqual([]);
  });

  it("keeps the operationIds clients were generated with", async () => {
    const ids = new Map((await documentedOperations()).map(([key, op]) => [key, op.operationId]));
    expect(ids.get("GET /orgs/{orgId}/connectors")).toBe("listConnectors");
    expect(ids.get("POST /workspaces/{workspaceId}/servers")).toBe("createServer");
    expect(ids.get("GET /orgs/{orgId}/audit")).toBe("listAuditEvents");
    expect(ids.get("GET /orgs/{orgId}/usage")).toBe("getOrgUsage");
    expect(ids.get("PUT /connectors/{connectorId}/graph")).toBe("setManualGraph");
  });

  it("tags every operation with a tag the document describes", async () => {
    const res = await request("GET", "/api/v1/openapi.json", null);
    const described = new Map((res.body.tags as { name: string; description: string }[]).map((t) => [t.name, t.description]));
    for (const [key, op] of await documentedOperations()) {
      expect(op.tags, key).toHaveLength(1);
      expect(described.get(op.tags![0]), `${key}: tag ${op.tags![0]}`).toMatch(/\S/);
    }
    const used = new Set((await documentedOperations()).map(([, op]) => op.tags![0]));
    expect([...described.keys()].filter((t) => !used.has(t))).toEqual([]);
  });

  it("documents the problem+json errors each operation's shape can answer, and no others", async () => {
    const errors = new Map((await documentedOperations()).map(([key, op]) => [key, Object.keys(op.responses).filter((s) => s >= "400").sort()]));
    for (const [key, op] of await documentedOperations()) {
      for (const status of errors.get(key)!) expect(op.responses[status].content, `${key} ${status}`).toHaveProperty(["application/problem+json"]);
    }
    // A list of the caller's own: nothing to miss, no body.
    expect(errors.get("GET /orgs")).toEqual(["400", "401", "403", "422", "429"]);
    // A create: taken slug (409), a body to refuse (413, 415, 422).
    expect(errors.get("POST /orgs")).toEqual(["400", "401", "403", "409", "413", "415", "422", "429"]);
    // A versioned change: all of it, and If-Match (412).
    expect(errors.get("PATCH /roles/{roleId}")).toEqual(["400", "401", "403", "404", "409", "412", "413", "415", "422", "429"]);
    // A delete without body: no 409 unless the spec names one (an org's last owner).
    expect(errors.get("DELETE /files/{fileId}")).toEqual(["400", "401", "403", "404", "412", "422", "429"]);
    expect(errors.get("DELETE /orgs/{orgId}/members/{userId}")).toContain("409");
    // A bulk action reports each object's failure in its 200, not as the request's status.
    expect(errors.get("POST /files/bulk-delete")).toEqual(["400", "401", "403", "413", "415", "422", "429"]);
    // A body that names an organization: one the caller cannot see is 404.
    expect(errors.get("POST /users")).toContain("404");
    // The upload refuses another media type than multipart/form-data.
    expect(errors.get("POST /workspaces/{workspaceId}/files")).toContain("415");
  });
});

/** A download is not JSON: a client generated from the document must not try to parse one as JSON. */
describe("OpenAPI: downloads say what they answer", () => {
  it("documents a file's content as its own bytes and the audit export as CSV or JSON Lines", async () => {
    const operations = new Map(await documentedOperations());
    expect(Object.keys(operations.get("GET /files/{fileId}/content")!.responses["200"].content!)).toEqual(["*/*"]);
    expect(Object.keys(operations.get("GET /orgs/{orgId}/audit/export")!.responses["200"].content!)).toEqual(["text/csv", "application/x-ndjson"]);
    expect(Object.keys(operations.get("GET /files/{fileId}")!.responses["200"].content!)).toEqual(["application/json"]);
  });
});
