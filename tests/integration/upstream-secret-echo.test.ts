import { callEndingsWritten } from "@/lib/audit/write-call-rows";
import http from "node:http";
import type net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { callerFromBearer } from "@/lib/auth/resolve-bearer";
import { db } from "@/lib/db/client";
import { callTool } from "@/lib/connectors/pipeline/call-tool";
import { UpstreamPool } from "@/lib/connectors/runtime/upstream-pool";
import { resolveCallerView } from "@/lib/mcp/visibility/resolve-view";
import { api } from "@/tests/helpers/api";
import { createTenant } from "@/tests/helpers/factories";
import { startMcpUpstream, type Upstream } from "@/tests/helpers/mcp-upstream";

/**
 * An upstream that refuses our connection and echoes the credential it was sent (many APIs
 * quote the token they reject). The connector's secret headers must not reach the MCP caller
 * — a workspace member who never sees them — nor the audit log, whether the failure happens
 * while the outbound connection opens or later.
 */

const TOKEN = "sk-live-7f3a9c2e51d04b6a";
const SECRET = `Bearer ${TOKEN}`;
const API_KEY = "key-0c41e5d9a7b2";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

/** Answers every request 400 (the SDK quotes the body of such an answer), quoting the Authorization and X-Api-Key headers, and (separately) the bare token. */
async function startEchoingRefuser(): Promise<string> {
  const server = http.createServer((req, res) => {
    req.resume();
    const auth = String(req.headers.authorization ?? "");
    const body = JSON.stringify({ error: `invalid credentials: ${auth} (token ${auth.replace(/^Bearer\s+/i, "")}), key ${req.headers["x-api-key"]}` });
    res.writeHead(400, { "content-type": "application/json" }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));
  return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/mcp`;
}

describe("an upstream that echoes the connector's credentials", () => {
  it("the tool result and the audit log carry no secret header value, not even the bare token", async () => {
    const up = await startMcpUpstream({ tools: [{ name: "search" }] });
    cleanups.push(() => up.close());
    const t = await createTenant();
    const connector = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
      name: "Docs",
      type: "mcp",
      config: { url: up.url, headers: { Authorization: SECRET, "X-Api-Key": API_KEY } },
    });
    expect(connector.status).toBe(201);
    const server = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "S", connectorIds: [connector.body.id] });
    // The upstream moves to a host that refuses and quotes what it got.
    const moved = await api(t.admin.token).patch(`/api/v1/connectors/${connector.body.id}`, { config: { url: await startEchoingRefuser() } });
    expect(moved.status).toBe(200);

    const pool = new UpstreamPool({ hostResources: null });
    cleanups.push(() => pool.closeAll());
    const caller = (await callerFromBearer(t.member.token))!;
    const view = (await resolveCallerView(caller, server.body.id))!;
    const result = await callTool({ caller, view, tool: view.toolsByExposedName.get("search")!, args: {} }, pool);

    const text = JSON.stringify(result);
    expect(result.isError).toBe(true);
    expect(text).toContain("invalid credentials: [redacted]"); // the refusal itself is still reported
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(API_KEY);
    await callEndingsWritten(); // endings follow the answers
    const events = await db().auditEvent.findMany({ where: { orgId: t.org.id, action: "tool.call" } });
    expect(events).toHaveLength(1);
    expect(JSON.stringify(events[0].data)).not.toContain(TOKEN);
    expect(JSON.stringify(events[0].data)).not.toContain(API_KEY);
  });
});

describe("an upstream MCP server whose tool result quotes the credentials it was sent", () => {
  it("the result reaches the caller and the audit log (results kept) with the secrets redacted", async () => {
    const up: Upstream = await startMcpUpstream({
      tools: [{ name: "whoami" }],
      requireHeaders: { authorization: SECRET },
      // Quotes the headers of the request it is answering (the last one it received).
      answer: () => `you are ${up.seenHeaders.at(-1)?.authorization} with key ${up.seenHeaders.at(-1)?.["x-api-key"]}`,
    });
    cleanups.push(() => up.close());
    const t = await createTenant();
    // Results are kept in the audit log only at this detail (an owner's choice).
    expect((await api(t.owner.token).patch(`/api/v1/orgs/${t.org.id}`, { toolAuditDetail: "arguments_and_results" })).status).toBe(200);
    const connector = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { name: "Who", type: "mcp", config: { url: up.url, headers: { Authorization: SECRET, "X-Api-Key": API_KEY } } });
    expect(connector.status, connector.text).toBe(201);
    const server = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "S", connectorIds: [connector.body.id] });
    const pool = new UpstreamPool({ hostResources: null });
    cleanups.push(() => pool.closeAll());
    const caller = (await callerFromBearer(t.member.token))!;
    const view = (await resolveCallerView(caller, server.body.id))!;
    const result = await callTool({ caller, view, tool: view.toolsByExposedName.get("whoami")!, args: {} }, pool);

    expect(up.seenHeaders.at(-1)?.authorization).toBe(SECRET); // the upstream did get (and quote) them
    expect(result.isError).toBeUndefined();
    expect(result.content).toEqual([{ type: "text", text: "you are [redacted] with key [redacted]" }]);
    await callEndingsWritten(); // endings follow the answers
    const events = await db().auditEvent.findMany({ where: { orgId: t.org.id, action: "tool.call" } });
    expect(JSON.stringify(events.map((e) => e.data))).toContain("you are [redacted]");
    expect(JSON.stringify(events.map((e) => e.data))).not.toContain(TOKEN);
    expect(JSON.stringify(events.map((e) => e.data))).not.toContain(API_KEY);
  });
});

describe("an HTTP API that echoes the bare token of a \"Bearer …\" header", () => {
  it("the isError result shows the answer without the token", async () => {
    const t = await createTenant();
    const connector = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
      name: "CRM",
      type: "http",
      config: { baseUrl: (await startEchoingRefuser()).replace(/\/mcp$/, ""), headers: { Authorization: SECRET } },
      tools: [{ name: "get_customer", request: { method: "GET", path: "/customers" } }],
    });
    expect(connector.status).toBe(201);
    const server = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "S", connectorIds: [connector.body.id] });
    const caller = (await callerFromBearer(t.member.token))!;
    const view = (await resolveCallerView(caller, server.body.id))!;
    const result = await callTool({ caller, view, tool: view.toolsByExposedName.get("get_customer")!, args: {} });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result)).toContain("HTTP 400");
    expect(JSON.stringify(result)).not.toContain(TOKEN);
    await callEndingsWritten(); // endings follow the answers
    const events = await db().auditEvent.findMany({ where: { orgId: t.org.id, action: "tool.call" } });
    expect(JSON.stringify(events.map((e) => e.data))).not.toContain(TOKEN);
  });
});
