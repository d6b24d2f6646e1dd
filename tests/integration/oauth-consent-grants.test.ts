import { callEndingsWritten } from "@/lib/audit/write-call-rows";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { consentRequest } from "@/lib/oauth/consent";
import { createApiKeyFor, createHttpConnector, createMcpServer, createTenant, createWorkspace, makeServer } from "@/tests/helpers/factories";
import type { RouteServer } from "@/tests/helpers/route-server";
import { authorizeUrl, decide, mcpRpc, pkce, publicClient, redirectOf, sessionCookieFor, tokensFor, toolNames, startOauthSite, stopOauthSite, type OauthSite } from "@/tests/helpers/oauth-flow";

/**
 * Issue 13 point 3: the consent page chooses what a client may reach, the choice is stored with
 * the grant, and a token resolves to the caller an API key of its user with that scope would be.
 */

let app: RouteServer;
let site: OauthSite;

beforeAll(async () => void ({ app, site } = await startOauthSite()));
afterAll(() => stopOauthSite(app));

/** Authorize up to the consent page: its signed query. */
async function toConsent(cookie: string, clientId: string, resource: string): Promise<URLSearchParams> {
  const res = await fetch(authorizeUrl(site, { client_id: clientId, code_challenge: pkce().challenge, resource }), { headers: { cookie }, redirect: "manual" });
  const at = await redirectOf(site, res);
  expect(at.pathname).toBe("/oauth/consent");
  return at.searchParams;
}

describe("consent chooses what a client may reach", () => {
  it("another organization's server, or one the user cannot see, is not offered: nothing is offered and an allow is refused (404)", async () => {
    const mine = await createTenant();
    const other = await createTenant();
    const foreign = await createMcpServer(other, []);
    // A workspace of the member's own org they are no member of.
    const hiddenWorkspace = await createWorkspace(mine.org.id);
    const hidden = (await makeServer(mine, { workspaceId: hiddenWorkspace.id, name: "Hidden" })).id;
    const user = mine.member.user;
    const cookie = await sessionCookieFor(user.id);
    const client = await publicClient(site, "Curious app");
    for (const serverId of [foreign, hidden, "no-such-server"]) {
      const search = await toConsent(cookie, client.client_id, `${app.origin}/mcp/${serverId}`);
      const request = await consentRequest(search, user.id, app.origin);
      expect(request?.offer, serverId).toBeNull();
      const refused = await decide(site, cookie, search.toString());
      expect(refused.status, serverId).toBe(404);
    }
    expect(await db().oauthGrant.count({ where: { clientId: client.client_id } })).toBe(0);
  });

  it("a signed query altered on its way back (another server, another client) is refused and stores no grant", async () => {
    const t = await createTenant();
    const [asked, other] = [await createMcpServer(t, []), await createMcpServer(t, [])];
    const cookie = await sessionCookieFor(t.member.user.id);
    const [client, otherClient] = [await publicClient(site, "Asking app"), await publicClient(site, "Other app")];
    const search = await toConsent(cookie, client.client_id, `${app.origin}/mcp/${asked}`);
    for (const [field, value] of [["resource", `${app.origin}/mcp/${other}`], ["client_id", otherClient.client_id], ["scope", "mcp offline_access openid"]] as const) {
      const altered = new URLSearchParams(search);
      altered.set(field, value);
      const answer = await decide(site, cookie, altered.toString());
      expect(answer.status, field).toBe(400);
    }
    expect(await db().oauthGrant.count({ where: { clientId: { in: [client.client_id, otherClient.client_id] } } })).toBe(0);
    expect((await decide(site, cookie, search.toString())).status).toBe(200);
    expect(await db().oauthGrant.count({ where: { clientId: client.client_id, resource: `${app.origin}/mcp/${asked}` } })).toBe(1);
  });

  it("for /mcp the user picks the workspace and its servers: the token sees only those, as a key pinned to the one chosen server does", async () => {
    const t = await createTenant();
    const crm = await createHttpConnector(t, "CRM", ["get_customer"]);
    const billing = await createHttpConnector(t, "Billing", ["get_invoice"]);
    const crmServer = await createMcpServer(t, [crm], "CRM server");
    await createMcpServer(t, [billing], "Billing server");
    const second = await createWorkspace(t.org.id);
    await makeServer(t, { workspaceId: second.id, name: "Elsewhere" });
    // An org admin works in both workspaces: both are offered.
    const user = t.admin.user;
    const cookie = await sessionCookieFor(user.id);
    const client = await publicClient(site, "Claude");
    const request = await consentRequest(await toConsent(cookie, client.client_id, `${app.origin}/mcp`), user.id, app.origin);
    expect(request?.offer?.kind).toBe("shared");
    expect(request?.offer?.kind === "shared" && request.offer.workspaces.map((w) => w.id).sort()).toEqual([t.workspace.id, second.id].sort());

    // A server of another workspace than the one chosen: refused.
    const mixed = await decide(site, cookie, (await toConsent(cookie, client.client_id, `${app.origin}/mcp`)).toString(), { workspace: second.id, server: [crmServer] });
    expect(mixed.status).toBe(400);

    const tokens = await tokensFor(site, { cookie, clientId: client.client_id, resource: `${app.origin}/mcp`, choice: { workspace: t.workspace.id, server: [crmServer] } });
    const pinnedKey = await createApiKeyFor(user, { id: t.workspace.id, orgId: t.org.id }, { serverId: crmServer });
    const viaToken = await toolNames(app.origin, "/mcp", tokens.access_token);
    expect(viaToken).toEqual(await toolNames(app.origin, "/mcp", pinnedKey.token));
    expect(viaToken.some((name) => name.includes("get_customer"))).toBe(true);
    expect(viaToken.some((name) => name.includes("get_invoice"))).toBe(false); // the server not consented
    const grant = await db().oauthGrant.findFirst({ where: { orgId: t.org.id, clientId: client.client_id } });
    expect(grant).toMatchObject({ userId: user.id, workspaceId: t.workspace.id, serverId: null, serverIds: [crmServer], revokedAt: null });
  });

  it("a token for /mcp/<id> serves as the user's key pinned there; its tool calls are audited as the user, via the client", async () => {
    const t = await createTenant();
    const serverId = await createMcpServer(t, [await createHttpConnector(t, "CRM", ["get_customer"], "https://127.0.0.1:9")]);
    const user = t.admin.user;
    const client = await publicClient(site, "Cursor");
    const tokens = await tokensFor(site, { cookie: await sessionCookieFor(user.id), clientId: client.client_id, resource: `${app.origin}/mcp/${serverId}` });
    const pinnedKey = await createApiKeyFor(user, { id: t.workspace.id, orgId: t.org.id }, { serverId });
    expect(await toolNames(app.origin, `/mcp/${serverId}`, tokens.access_token)).toEqual(await toolNames(app.origin, `/mcp/${serverId}`, pinnedKey.token));
    const call = await mcpRpc(app.origin, `/mcp/${serverId}`, tokens.access_token, "tools/call", { name: "get_customer", arguments: {} });
    expect(call.status).toBe(200);
    await callEndingsWritten(); // endings follow the answers
    const event = await db().auditEvent.findFirst({ where: { orgId: t.org.id, action: "tool.call" }, orderBy: { createdAt: "desc" } });
    expect(event).toMatchObject({ actorType: "oauth_client", actorId: user.id, data: expect.objectContaining({ oauthClientId: client.client_id, oauthClientName: "Cursor" }) });
    const allowed = await db().auditEvent.findFirst({ where: { orgId: t.org.id, action: "oauth_app.allow" } });
    expect(allowed).toMatchObject({ actorType: "user", actorId: user.id, targetId: client.client_id });
  });
});
