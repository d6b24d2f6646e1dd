import http from "node:http";
import type net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { callerFromBearer } from "@/lib/auth/resolve-bearer";
import { discoverMcpTools, UpstreamUnreachableError } from "@/lib/connectors/discover-mcp-tools";
import { callTool } from "@/lib/connectors/pipeline/call-tool";
import { UpstreamPool } from "@/lib/connectors/runtime/upstream-pool";
import { resolveCallerView } from "@/lib/mcp/visibility/resolve-view";
import { api } from "@/tests/helpers/api";
import { createTenant } from "@/tests/helpers/factories";
import { startMcpUpstream, type Upstream } from "@/tests/helpers/mcp-upstream";

/**
 * An mcp connector's secret headers go to its own origin only. A redirect to another origin
 * (an open redirect, a moved server, a hostile upstream) is not followed, neither when tools
 * are discovered nor on a tool call's outbound connection, so the other origin never receives
 * them. (http connectors: tests/integration/connector-runtime-http.test.ts "redirects".)
 */

const SECRET = "Bearer redirect-secret-9d2c4e";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

/** Answers every request with a redirect to `target` (another origin: another port). */
async function startRedirector(target: () => string, status = 307): Promise<string> {
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(status, { location: target() }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));
  return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/mcp`;
}

async function otherOrigin(): Promise<Upstream> {
  const up = await startMcpUpstream({ tools: [{ name: "search" }] });
  cleanups.push(() => up.close());
  return up;
}

describe("mcp connectors and redirects to another origin", () => {
  it("discovery does not follow them: the other origin never sees the secret header", async () => {
    const elsewhere = await otherOrigin();
    const redirector = await startRedirector(() => elsewhere.url);
    await expect(discoverMcpTools({ url: redirector, headers: { Authorization: SECRET } }, { timeoutMs: 3000 })).rejects.toBeInstanceOf(UpstreamUnreachableError);
    expect(elsewhere.seenHeaders.some((h) => h.authorization === SECRET)).toBe(false);
  });

  it("a tool call's outbound connection does not follow them either", async () => {
    const real = await startMcpUpstream({ tools: [{ name: "search" }] });
    cleanups.push(() => real.close());
    const elsewhere = await otherOrigin();
    const t = await createTenant();
    const connector = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { name: "Docs", type: "mcp", config: { url: real.url, headers: { Authorization: SECRET } } });
    expect(connector.status).toBe(201);
    const server = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "S", connectorIds: [connector.body.id] });
    // The connector now points at a host that redirects to another origin.
    await api(t.admin.token).patch(`/api/v1/connectors/${connector.body.id}`, { config: { url: await startRedirector(() => elsewhere.url, 308) } });

    const pool = new UpstreamPool({ hostResources: null, connectTimeoutMs: 3000 });
    cleanups.push(() => pool.closeAll());
    const caller = (await callerFromBearer(t.member.token))!;
    const view = (await resolveCallerView(caller, server.body.id))!;
    const result = await callTool({ caller, view, tool: view.toolsByExposedName.get("search")!, args: {} }, pool);
    expect(result.isError).toBe(true);
    expect(elsewhere.seenHeaders.some((h) => h.authorization === SECRET)).toBe(false);
  });
});
