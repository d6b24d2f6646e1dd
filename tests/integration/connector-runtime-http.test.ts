import { callEndingsWritten } from "@/lib/audit/write-call-rows";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { callerFromBearer } from "@/lib/auth/resolve-bearer";
import { db } from "@/lib/db/client";
import { renderMetrics } from "@/lib/ops/metrics";
import { callTool } from "@/lib/connectors/pipeline/call-tool";
import type { ToolCallResult } from "@/lib/connectors/runtime/types";
import { resolveCallerView } from "@/lib/mcp/visibility/resolve-view";
import { api } from "@/tests/helpers/api";
import { createTenant, INSTANCE_KEY, type Tenant } from "@/tests/helpers/factories";
import { startHttpApi, type HttpApiStub } from "@/tests/helpers/http-api-stub";

/**
 * Issue 3 "Tool calls for real" — http connectors, against a real HTTP server on 127.0.0.1.
 * Rows are created through the admin API; the caller's view comes from resolveCallerView.
 */

const SECRET = "Bearer crm-secret-9d2e7b41";
const API_KEY = "key-3a7c55e0f1";

const tools = [
  {
    name: "get_customer",
    inputSchema: { type: "object", properties: { id: { type: "string" }, expand: { type: "array", items: { type: "string" } } }, required: ["id"] },
    request: { method: "GET", path: "/customers/{id}" },
  },
  {
    name: "update_customer",
    inputSchema: { type: "object", properties: { id: { type: "string" }, name: { type: "string" }, vip: { type: "boolean" } }, required: ["id"] },
    request: { method: "PATCH", path: "/customers/{id}" },
  },
  { name: "delete_note", request: { method: "DELETE", path: "/notes/{noteId}" } },
  { name: "get", inputSchema: { type: "object", properties: { path: { type: "string" } } }, request: { method: "GET", path: "/{path}" } },
];

let upstream: HttpApiStub;
let other: HttpApiStub;
beforeEach(async () => {
  upstream = await startHttpApi();
  other = await startHttpApi();
});
afterEach(async () => {
  delete process.env.HTTP_TOOL_TIMEOUT_MS;
  delete process.env.HTTP_TOOL_MAX_RESPONSE_BYTES;
  await Promise.all([upstream.close(), other.close()]);
});

/** An http connector on the stub API, assigned to a new server; returns a call function for `token`. */
async function setup(existing?: Tenant) {
  const tenant = existing ?? (await createTenant());
  const connector = await api(tenant.admin.token).post(`/api/v1/orgs/${tenant.org.id}/connectors`, {
    name: "CRM",
    type: "http",
    config: { baseUrl: `${upstream.origin}/v1`, headers: { Authorization: SECRET, "X-Api-Key": API_KEY } },
    tools,
  });
  expect(connector.status).toBe(201);
  const server = await api(tenant.admin.token).post(`/api/v1/workspaces/${tenant.workspace.id}/servers`, { name: "Support", connectorIds: [connector.body.id] });
  expect(server.status).toBe(201);
  const call = async (name: string, args: Record<string, unknown>, token = tenant.member.token): Promise<ToolCallResult> => {
    const caller = (await callerFromBearer(token))!;
    const view = (await resolveCallerView(caller, server.body.id))!;
    const tool = view.toolsByExposedName.get(name)!;
    expect(tool).toBeDefined();
    return callTool({ caller, view, tool, args });
  };
  return { tenant, connectorId: connector.body.id as string, serverId: server.body.id as string, call };
}

const text = (result: ToolCallResult) => result.content.map((c) => ("text" in c ? c.text : "")).join("");

describe("http tools: the request is built from the tool's mapping", () => {
  it("{param} in the path takes that argument, URL-encoded; the others go to the query string for GET", async () => {
    upstream.route("GET", "/v1/customers/a%2Fb%20c", (_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"id":"a/b c","name":"Ada"}'));
    const { call } = await setup();
    const result = await call("get_customer", { id: "a/b c", expand: ["orders", "notes"] });
    expect(result.isError).toBeUndefined();
    expect(upstream.seen[0].method).toBe("GET");
    expect(upstream.seen[0].url).toBe("/v1/customers/a%2Fb%20c?expand=orders&expand=notes");
    expect(upstream.seen[0].body).toBe("");
    expect(result.structuredContent).toEqual({ id: "a/b c", name: "Ada" });
    expect(text(result)).toBe(JSON.stringify({ id: "a/b c", name: "Ada" }, null, 2));
  });

  it("the other arguments go to a JSON body for PATCH, and to the query string for DELETE", async () => {
    upstream.route("PATCH", "/v1/customers/42", (req, res) => res.writeHead(200, { "content-type": "application/json" }).end(req.body));
    upstream.route("DELETE", "/v1/notes/7", (_req, res) => res.writeHead(204).end());
    const { call } = await setup();
    const patched = await call("update_customer", { id: "42", name: "Grace", vip: true });
    expect(upstream.seen[0].headers["content-type"]).toBe("application/json");
    expect(JSON.parse(upstream.seen[0].body)).toEqual({ name: "Grace", vip: true });
    expect(patched.structuredContent).toEqual({ name: "Grace", vip: true });
    const deleted = await call("delete_note", { noteId: 7, hard: true });
    expect(upstream.seen[1]).toMatchObject({ method: "DELETE", url: "/v1/notes/7?hard=true", body: "" });
    expect(deleted.isError).toBeUndefined();
  });

  it("sends the connector's decrypted headers, which never reach the result or the audit trail", async () => {
    upstream.route("GET", "/v1/customers/1", (req, res) =>
      res.writeHead(200, { "content-type": "text/plain" }).end(`you sent ${req.headers.authorization} and ${req.headers["x-api-key"]}`),
    );
    const { call, tenant } = await setup();
    const result = await call("get_customer", { id: "1" });
    expect(upstream.seen[0].headers.authorization).toBe(SECRET);
    expect(upstream.seen[0].headers["x-api-key"]).toBe(API_KEY);
    expect(text(result)).toBe("you sent [redacted] and [redacted]");
    await callEndingsWritten(); // endings follow the answers
    const audit = JSON.stringify(await db().auditEvent.findMany({ where: { orgId: tenant.org.id } }));
    expect(audit).not.toContain(SECRET);
    expect(audit).not.toContain(API_KEY);
  });

  it("a path argument of '..' cannot move the request to another path of the API", async () => {
    const { call } = await setup();
    const result = await call("get_customer", { id: ".." });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('path parameter "id"');
    expect(upstream.seen).toHaveLength(0);
  });
});

describe("http tools: arguments are validated against the tool's input schema first", () => {
  it("bad arguments → a clear isError naming the field, and no request is made", async () => {
    const { call } = await setup();
    const wrongType = await call("get_customer", { id: 42 });
    expect(wrongType.isError).toBe(true);
    expect(text(wrongType)).toBe("Invalid arguments: /id must be string");
    const missing = await call("get_customer", {});
    expect(text(missing)).toBe("Invalid arguments: must have required property 'id'");
    const nested = await call("get_customer", { id: "1", expand: ["ok", 3] });
    expect(text(nested)).toBe("Invalid arguments: /expand/1 must be string");
    expect(upstream.seen).toHaveLength(0);
  });
});

describe("http tools: the response becomes content", () => {
  it("text → text; an image → image content; a JSON array → text without structuredContent", async () => {
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
    upstream.route("GET", "/v1/readme", (_req, res) => res.writeHead(200, { "content-type": "text/markdown; charset=utf-8" }).end("# Hello ✓"));
    upstream.route("GET", "/v1/logo", (_req, res) => res.writeHead(200, { "content-type": "image/png" }).end(png));
    upstream.route("GET", "/v1/list", (_req, res) => res.writeHead(200, { "content-type": "application/json" }).end("[1,2]"));
    const { call } = await setup();
    expect(await call("get", { path: "readme" })).toEqual({ content: [{ type: "text", text: "# Hello ✓" }] });
    expect(await call("get", { path: "logo" })).toEqual({ content: [{ type: "image", data: png.toString("base64"), mimeType: "image/png" }] });
    const list = await call("get", { path: "list" });
    expect(list).toEqual({ content: [{ type: "text", text: "[\n  1,\n  2\n]" }] });
  });

  it("a non-2xx answer → isError with the status and an excerpt of the body", async () => {
    upstream.route("GET", "/v1/customers/404", (_req, res) => res.writeHead(404, { "content-type": "application/json" }).end('{"error":"no such customer"}'));
    upstream.route("GET", "/v1/customers/500", (_req, res) => res.writeHead(500, { "content-type": "text/plain" }).end("x".repeat(5000)));
    const { call } = await setup();
    const missing = await call("get_customer", { id: "404" });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toBe('HTTP 404 Not Found: {"error":"no such customer"}');
    const broken = await call("get_customer", { id: "500" });
    expect(broken.isError).toBe(true);
    expect(text(broken)).toMatch(/^HTTP 500 Internal Server Error: x{1000}…$/);
  });

  it("network failure → isError with a useful message, not a crash", async () => {
    const { call } = await setup();
    await upstream.close();
    const result = await call("get_customer", { id: "1" });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^The request to http:\/\/127\.0\.0\.1:\d+ failed: .*ECONNREFUSED/);
    expect(text(result)).not.toContain(SECRET);
  });

  it("an upstream that does not answer in HTTP_TOOL_TIMEOUT_MS → isError naming the limit", async () => {
    upstream.route("GET", "/v1/customers/slow", () => {
      /* never answers */
    });
    process.env.HTTP_TOOL_TIMEOUT_MS = "300";
    const { call } = await setup();
    const result = await call("get_customer", { id: "slow" });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^The request to http:\/\/127\.0\.0\.1:\d+ did not finish within 300 ms\.$/);
  });

  it("an answer larger than HTTP_TOOL_MAX_RESPONSE_BYTES → isError 'response too large', declared or streamed", async () => {
    // A 1000-byte cap (default 5 MiB) so a 1001-byte answer is too large.
    process.env.HTTP_TOOL_MAX_RESPONSE_BYTES = "1000";
    upstream.route("GET", "/v1/declared", (_req, res) => res.writeHead(200, { "content-type": "text/plain", "content-length": "1001" }).end("y".repeat(1001)));
    upstream.route("GET", "/v1/streamed", (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" }); // chunked: no length to check up front
      for (let i = 0; i < 5; i++) res.write("z".repeat(300));
      res.end();
    });
    upstream.route("GET", "/v1/fits", (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("w".repeat(1000)));
    const { call } = await setup();
    for (const path of ["declared", "streamed"]) {
      const result = await call("get", { path });
      expect(result.isError).toBe(true);
      expect(text(result)).toContain("response too large");
    }
    expect(text(await call("get", { path: "fits" }))).toBe("w".repeat(1000));
  });
});

describe("http tools: redirects are limited", () => {
  it("a redirect to another origin is followed without the connector's secret headers", async () => {
    upstream.route("GET", "/v1/customers/moved", (_req, res) => res.writeHead(302, { location: `${other.origin}/landing?x=1` }).end());
    other.route("GET", "/landing", (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("landed"));
    const { call } = await setup();
    const result = await call("get_customer", { id: "moved" });
    expect(text(result)).toBe("landed");
    expect(upstream.seen[0].headers.authorization).toBe(SECRET);
    expect(other.seen).toHaveLength(1);
    expect(other.seen[0].url).toBe("/landing?x=1");
    expect(other.seen[0].headers.authorization).toBeUndefined();
    expect(other.seen[0].headers["x-api-key"]).toBeUndefined();
  });

  it("secrets stay off even when a later redirect comes back to the connector's origin", async () => {
    upstream.route("GET", "/v1/customers/bounce", (_req, res) => res.writeHead(307, { location: `${other.origin}/back` }).end());
    other.route("GET", "/back", (_req, res) => res.writeHead(307, { location: `${upstream.origin}/v1/final` }).end());
    upstream.route("GET", "/v1/final", (req, res) => res.writeHead(200, { "content-type": "text/plain" }).end(`auth=${req.headers.authorization ?? "none"}`));
    const { call } = await setup();
    expect(text(await call("get_customer", { id: "bounce" }))).toBe("auth=none");
  });

  it("a same-origin redirect keeps the headers; more than 5 redirects → isError", async () => {
    upstream.route("GET", "/v1/customers/old", (_req, res) => res.writeHead(301, { location: "/v1/customers/new" }).end());
    upstream.route("GET", "/v1/customers/new", (req, res) => res.writeHead(200, { "content-type": "text/plain" }).end(`auth ok: ${req.headers["x-api-key"] === API_KEY}`));
    upstream.route("GET", "/v1/loop", (_req, res) => res.writeHead(302, { location: "/v1/loop" }).end());
    const { call } = await setup();
    expect(text(await call("get_customer", { id: "old" }))).toBe("auth ok: true");
    const loop = await call("get", { path: "loop" });
    expect(loop.isError).toBe(true);
    expect(text(loop)).toContain("more than 5 redirects");
    expect(upstream.seen.filter((r) => r.url === "/v1/loop")).toHaveLength(6);
  });
});

/** The current value of one Prometheus sample line, 0 when absent. */
async function metricSample(line: string): Promise<number> {
  const { body } = await renderMetrics();
  const found = body.split("\n").find((l) => l.startsWith(line + " "));
  return found ? Number(found.slice(line.length + 1)) : 0;
}

describe("http tools: outcomes are counted for /api/metrics", () => {
  it("switchboard_upstream_calls_total counts each call by connector kind and outcome", async () => {
    upstream.route("GET", "/v1/customers/5", (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("ok"));
    upstream.route("GET", "/v1/customers/6", (_req, res) => res.writeHead(500, { "content-type": "text/plain" }).end("boom"));
    const { call } = await setup();
    const ok = 'switchboard_upstream_calls_total{kind="http",outcome="ok"}';
    const isError = 'switchboard_upstream_calls_total{kind="http",outcome="isError"}';
    const [okBefore, isErrorBefore] = [await metricSample(ok), await metricSample(isError)];
    await call("get_customer", { id: "5" });
    await call("get_customer", { id: "6" });
    expect(await metricSample(ok)).toBe(okBefore + 1);
    expect(await metricSample(isError)).toBe(isErrorBefore + 1);
  });
});

describe("http tools: every call is audited", () => {
  it("caller, server, connector, tool, duration and outcome; arguments redacted and truncated; no config version bump", async () => {
    upstream.route("PATCH", "/v1/customers/9", (_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true,"token":"t-123"}'));
    upstream.route("GET", "/v1/customers/9", (_req, res) => res.writeHead(503, { "content-type": "text/plain" }).end("down"));
    const tenant = await createTenant();
    // Arguments and results are kept only when the org asks for them (the default is metadata).
    await db().organization.update({ where: { id: tenant.org.id }, data: { toolAuditDetail: "arguments_and_results" } });
    const { call, serverId, connectorId } = await setup(tenant);
    const before = await db().organization.findUniqueOrThrow({ where: { id: tenant.org.id }, select: { configVersion: true } });
    await call("update_customer", { id: "9", name: "n".repeat(20_000), password: "hunter2", nested: { api_key: "k-1" } });
    await call("get_customer", { id: "9" });
    await call("get_customer", { id: 9 });
    await callEndingsWritten(); // endings follow the answers
    const events = await db().auditEvent.findMany({ where: { orgId: tenant.org.id, action: "tool.call" }, orderBy: { createdAt: "asc" } });
    expect(events).toHaveLength(3);
    expect(events.map((e) => (e.data as { outcome: string }).outcome)).toEqual(["ok", "isError", "error"]);
    const first = events[0];
    expect(first).toMatchObject({ actorType: "api_key", actorId: tenant.member.user.id, workspaceId: tenant.workspace.id, targetId: connectorId });
    const data = first.data as Record<string, any>;
    expect(data).toMatchObject({ serverId, connectorId, connectorSlug: "crm", tool: "update_customer", exposedName: "update_customer", outcome: "ok" });
    expect(data.durationMs).toEqual(expect.any(Number));
    expect(data.arguments).toMatchObject({ truncated: true });
    expect(JSON.stringify(data.arguments).length).toBeLessThanOrEqual(16 * 1024);
    expect(JSON.stringify(data.arguments)).not.toContain("hunter2");
    expect(JSON.stringify(data.arguments)).not.toContain("k-1");
    expect(data.result.structuredContent).toEqual({ ok: true, token: "[redacted]" });
    const after = await db().organization.findUniqueOrThrow({ where: { id: tenant.org.id }, select: { configVersion: true } });
    expect(after.configVersion).toBe(before.configVersion);
  });

  it("the instance credential's calls are audited as the instance", async () => {
    upstream.route("GET", "/v1/customers/1", (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("hi"));
    const { call, tenant } = await setup();
    expect(text(await call("get_customer", { id: "1" }, INSTANCE_KEY))).toBe("hi");
    await callEndingsWritten(); // endings follow the answers
    const [event] = await db().auditEvent.findMany({ where: { orgId: tenant.org.id, action: "tool.call" } });
    expect(event).toMatchObject({ actorType: "instance", actorId: null });
  });
});
