import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { upstreamPool } from "@/lib/connectors/runtime/default-pool";
import { api } from "@/tests/helpers/api";
import { createTenant, type Tenant } from "@/tests/helpers/factories";
import { mcpRpc, sessionCookieFor } from "@/tests/helpers/oauth-flow";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";
import { CC_CLIENT, signInUpstream, startOAuthUpstream, type OAuthUpstream } from "@/tests/helpers/oauth-upstream";

/**
 * Issue 24: an `mcp` connector's OAuth token is the upstream's secret as much as a header is.
 * An upstream that quotes the Authorization header it got in its error (message and data) has
 * the token redacted from what the caller gets and from the call's audit event, whether the
 * token is a person's (per_user) or the connector's (client_credentials).
 */

let app: RouteServer;
let upstream: OAuthUpstream;
let t: Tenant;

beforeAll(async () => {
  app = await startRouteServer();
  // The connect links and the OAuth callback are made on the test server's own origin (the path without
  // PUBLIC_URL has its own test: upstream-oauth-origins.test.ts).
  process.env.PUBLIC_URL = app.origin;
  upstream = await startOAuthUpstream({ echoAuthTool: true });
  t = await createTenant();
});
afterAll(async () => {
  delete process.env.PUBLIC_URL;
  await upstreamPool().closeAll();
  await upstream?.close();
  await app?.close();
});

async function serverOver(name: string, auth: object): Promise<{ connectorId: string; path: string }> {
  const created = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { type: "mcp", name, config: { url: upstream.mcpUrl }, auth });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const server = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name, connectorIds: [created.body.id] });
  return { connectorId: created.body.id, path: `/mcp/${server.body.id}` };
}

/** Calls echo_auth as the admin; what the caller got and the call's audit event, as text. */
async function callEcho(connectorId: string, path: string): Promise<{ answer: string; audit: string }> {
  const list = await mcpRpc(app.origin, path, t.admin.token, "tools/list");
  const name = (list.message.result.tools as { name: string }[]).find((tool) => tool.name.endsWith("echo_auth"))!.name;
  const { message } = await mcpRpc(app.origin, path, t.admin.token, "tools/call", { name, arguments: {} });
  const events = await db().auditEvent.findMany({ where: { orgId: t.org.id, action: "tool.call" } });
  return { answer: JSON.stringify(message), audit: JSON.stringify(events.filter((event) => JSON.stringify(event).includes(connectorId))) };
}

function expectNoToken(seen: { answer: string; audit: string }): void {
  // The upstream did answer its error, the credential in it redacted.
  expect(seen.answer).toContain("refused for [redacted]");
  const accessTokens = upstream.issued.filter((token) => token.startsWith("at_"));
  expect(accessTokens.length).toBeGreaterThan(0);
  for (const token of accessTokens) {
    expect(seen.answer).not.toContain(token);
    expect(seen.audit).not.toContain(token);
  }
}

describe("an upstream quoting its Authorization header", () => {
  it("client_credentials: the connector's token is redacted from the error the caller gets and from the audit", async () => {
    const auth = { type: "client_credentials", tokenUrl: `${upstream.origin}/cc/token`, clientId: CC_CLIENT.id, clientSecret: CC_CLIENT.secret };
    const { connectorId, path } = await serverOver("Machine", auth);
    expectNoToken(await callEcho(connectorId, path));
  });

  it("per_user OAuth: the person's token is redacted the same way", async () => {
    const { connectorId, path } = await serverOver("People", { type: "oauth", connection: "per_user" });
    const started = await api(t.admin.token).post(`/api/v1/connectors/${connectorId}/connections`, {});
    const back = await signInUpstream(started.body.authorizationUrl, "alice");
    expect((await fetch(back, { headers: { cookie: await sessionCookieFor(t.admin.user.id) }, redirect: "manual" })).status).toBe(200);
    expectNoToken(await callEcho(connectorId, path));
  });
});
