import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { toAppError } from "@/lib/api/problem";
import { signInWithPassword } from "@/lib/auth/password-sign-in";
import { api } from "@/tests/helpers/api";
import { createTenant } from "@/tests/helpers/factories";
import { upload, useTempFilesDir } from "@/tests/helpers/files";
import { startHttpApi, type HttpApiStub } from "@/tests/helpers/http-api-stub";
import { postRaw } from "@/tests/helpers/mcp-clients";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";
import { createServer } from "@/tests/helpers/resource-scenario";

/**
 * Issue 10, point 2: text PostgreSQL cannot store (U+0000, an unpaired surrogate) is refused
 * at the edge with 400/422, never a 500 from a query or the audit insert, and nothing is
 * stored or sent upstream. Each test is one reproduction of the fuzzer's findings. (Escapes
 * that are not UTF-8 and TRACE are Next.js's own layer: tests/e2e/api-fuzz.test.ts.)
 */

const NUL = "a\u0000b";
const LONE = "a\ud800b";

let routes: RouteServer;
let upstream: HttpApiStub;
beforeAll(async () => {
  useTempFilesDir();
  [routes, upstream] = await Promise.all([startRouteServer(), startHttpApi()]);
});
afterAll(async () => {
  await Promise.all([routes?.close(), upstream?.close()]);
});

function expectProblem(res: { status: number; headers: Headers }, status: number) {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
}

describe("the JSON API refuses unstorable text before any database work", () => {
  it("a NUL in a path id (GET /orgs/%00) is a 400, not a 500", async () => {
    const t = await createTenant();
    const res = await api(t.owner.token).get(`/api/v1/orgs/${encodeURIComponent(NUL)}`);
    expectProblem(res, 400);
    expect(res.body.detail).toContain("NUL");
  });

  it("a NUL in the cursor query parameter is a 422 naming the parameter", async () => {
    const t = await createTenant();
    const res = await api(t.owner.token).get(`/api/v1/orgs/${t.org.id}/workspaces?cursor=%00`);
    expectProblem(res, 422);
    expect(res.body.errors).toEqual([{ path: "cursor", message: "The query parameter contains a NUL character (U+0000)." }]);
  });

  it("a NUL in a body field is a 422 naming the field, and nothing is created", async () => {
    const t = await createTenant();
    const res = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/workspaces`, { name: NUL, slug: "nul-ws" });
    expectProblem(res, 422);
    expect(res.body.errors).toEqual([{ path: "name", message: "The value contains a NUL character (U+0000)." }]);
    expect(await db().workspace.count({ where: { orgId: t.org.id, slug: "nul-ws" } })).toBe(0);
  });

  it("an unpaired surrogate in a body field (it broke the audit insert) is a 422, and nothing is created", async () => {
    const t = await createTenant();
    const raw = JSON.stringify({ name: "x", slug: "lone-ws" }).replace('"x"', '"a\\ud800b"');
    const res = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/workspaces`, undefined, { raw, headers: { "content-type": "application/json" } });
    expectProblem(res, 422);
    expect(res.body.errors[0]).toEqual({ path: "name", message: "The value contains an unpaired UTF-16 surrogate." });
    expect(await db().workspace.count({ where: { orgId: t.org.id, slug: "lone-ws" } })).toBe(0);
  });

  it("a NUL in a knowledge-graph key is a 422 and the manual layer stays empty", async () => {
    const t = await createTenant();
    const connector = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { name: "CRM", type: "http", config: { baseUrl: "https://api.example.com" } });
    const res = await api(t.admin.token).put(`/api/v1/connectors/${connector.body.id}/graph`, { entities: [{ key: NUL, label: "Order" }], relations: [] });
    expectProblem(res, 422);
    expect(res.body.errors[0].path).toBe("entities.0.key");
    expect(await db().graphEntity.count({ where: { connectorId: connector.body.id } })).toBe(0);
  });

  it("a NUL in an object key of a body is refused as well", async () => {
    const t = await createTenant();
    const res = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { name: "CRM", type: "http", config: { baseUrl: "https://api.example.com", headers: { [NUL]: "v" } } });
    expectProblem(res, 422);
    expect(res.body.errors[0].path).toBe(`config.headers.${NUL}`);
  });
});

describe("multipart uploads refuse unstorable text and keep nothing", () => {
  it("a NUL in a tag field is a 422 and no file row is left", async () => {
    const t = await createTenant();
    const res = await upload(t.member.token, t.workspace.id, { bytes: "hello", name: "notes.txt", tags: [NUL] });
    expectProblem(res, 422);
    expect(res.body.errors).toEqual([{ path: "tags", message: "The value contains a NUL character (U+0000)." }]);
    expect(await db().file.count({ where: { workspaceId: t.workspace.id } })).toBe(0);
  });

  it("a NUL in the file name (RFC 5987 filename*) is a 422 and no file row is left", async () => {
    const t = await createTenant();
    const boundary = "----hostile";
    const raw = [`--${boundary}`, `Content-Disposition: form-data; name="file"; filename*=UTF-8''notes%00.txt`, "Content-Type: text/plain", "", "hello", `--${boundary}--`, ""].join("\r\n");
    const res = await api(t.member.token).post(`/api/v1/workspaces/${t.workspace.id}/files`, undefined, { raw, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } });
    expectProblem(res, 422);
    expect(res.body.errors).toEqual([{ path: "file", message: "The file name contains a NUL character (U+0000)." }]);
    expect(await db().file.count({ where: { workspaceId: t.workspace.id } })).toBe(0);
  });
});

describe("text that reaches the database another way in (admin forms are server actions)", () => {
  it("the database's refusal of a NUL becomes the same 422, not a 500", async () => {
    const refused = await db().organization.create({ data: { name: NUL, slug: `nul-${Date.now()}` } }).then(() => null, (e: unknown) => e);
    expect(refused).not.toBeNull();
    expect(toAppError(refused)).toMatchObject({ code: "validation_failed" });
    expect(await db().organization.count({ where: { name: { startsWith: "a", endsWith: "b" }, slug: { startsWith: "nul-" } } })).toBe(0);
  });

  it("the sign-in form's server action takes a NUL e-mail as a wrong sign-in, without a lookup", async () => {
    const result = await signInWithPassword({ email: `owner${NUL}@example.test`, password: "whatever-it-is", clientIp: "198.51.100.7" });
    expect(result).toEqual({ ok: false, reason: "invalid" });
  });
});

describe("the MCP endpoints answer a JSON-RPC error with a 4xx", () => {
  const mcpHeaders = (token: string | null) => ({ ...(token ? { authorization: `Bearer ${token}` } : {}), "mcp-protocol-version": "2025-11-25" });

  it("/mcp/%00 is a 400 JSON-RPC error (it was a 503 hiding the database error)", async () => {
    const t = await createTenant();
    const res = await postRaw(`${routes.origin}/mcp/%00`, { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }, mcpHeaders(t.admin.token));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 } });
    expect(res.body.error.message).toContain("server id");
  });

  it("a NUL in a demo tool argument is refused naming the argument, with the request's id", async () => {
    const res = await postRaw(`${routes.origin}/mcp/demo`, { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "echo", arguments: { text: NUL } } }, mcpHeaders(null));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ jsonrpc: "2.0", id: 9, error: { code: -32602, message: 'Invalid arguments: the argument "text" contains a NUL character (U+0000).' } });
  });

  it("a lone surrogate in a tool argument is refused as such, not as 'base URL is not a valid URL', and the upstream sees nothing", async () => {
    const t = await createTenant();
    const connector = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
      type: "http",
      name: "Orders",
      config: { baseUrl: upstream.origin },
      tools: [{ name: "get_order", request: { method: "GET", path: "/orders/{id}" }, inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } }],
    });
    expect(connector.status, connector.text).toBe(201);
    const serverId = await createServer(t, [connector.body.id]);
    const url = `${routes.origin}/mcp/${serverId}`;
    const listed = await postRaw(url, { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }, mcpHeaders(t.admin.token));
    const name = listed.body.result.tools[0].name as string;
    const raw = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name, arguments: { id: "x" } } }).replace('"id":"x"', '"id":"a\\udc00"');
    const before = upstream.seen.length;
    const res = await postRaw(url, raw, mcpHeaders(t.admin.token));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Invalid arguments: the argument "id" contains an unpaired UTF-16 surrogate.');
    expect(res.body.error.message).not.toContain("base URL");
    expect(upstream.seen.length).toBe(before);
    expect(await db().auditEvent.count({ where: { orgId: t.org.id, action: "tool.call" } })).toBe(0);
  });

  it("a lone surrogate in a 2026-07-28 request's _meta is refused before the SDK sees it", async () => {
    const _meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: LONE, version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };
    const res = await postRaw(`${routes.origin}/mcp/demo`, { jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta } }, { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(-32602);
    expect(res.body.error.message).toContain("params._meta.io.modelcontextprotocol/clientInfo.name");
  });
});
