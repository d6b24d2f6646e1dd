import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { changePassword } from "@/lib/auth/change-password";
import { hashPassword } from "@/lib/auth/password";
import { api } from "@/tests/helpers/api";
import { createHttpConnector, createMcpServer, createTenant } from "@/tests/helpers/factories";
import type { RouteServer } from "@/tests/helpers/route-server";
import { authorizeUrl, mcpRpc, pkce, postForm, publicClient, redirectOf, sessionCookieFor, tokensFor, toolNames, startOauthSite, stopOauthSite, type OauthSite } from "@/tests/helpers/oauth-flow";

/**
 * Issue 13 point 4: each person sees the apps they allowed and revokes them; org admins see and
 * revoke those of their org; revoking stops the very next request, and the app must ask again.
 * RFC 7009 revocation works for public clients.
 */

let app: RouteServer;
let site: OauthSite;

beforeAll(async () => void ({ app, site } = await startOauthSite()));
afterAll(() => stopOauthSite(app));

async function connected(label: string) {
  const t = await createTenant();
  const serverId = await createMcpServer(t, [await createHttpConnector(t, "CRM", ["get_customer"])], "CRM server");
  const user = t.member.user;
  const cookie = await sessionCookieFor(user.id);
  const client = await publicClient(site, label);
  const resource = `${app.origin}/mcp/${serverId}`;
  const tokens = await tokensFor(site, { cookie, clientId: client.client_id, resource });
  return { t, serverId, user, cookie, client, resource, tokens };
}

describe("connected apps", () => {
  it("the user lists the app with its servers and last use, revokes it: the next request is 401 invalid_token, refresh fails, and authorizing asks again", async () => {
    const { t, serverId, cookie, client, resource, tokens } = await connected("Claude Desktop");
    expect(await toolNames(app.origin, `/mcp/${serverId}`, tokens.access_token)).toHaveLength(1); // resolved (and cached) once
    const mine = await api(t.member.token).get("/api/v1/me/connected-apps");
    expect(mine.status).toBe(200);
    expect(mine.body.items).toEqual([
      expect.objectContaining({ clientId: client.client_id, clientName: "Claude Desktop", resource, serverId, servers: [{ id: serverId, name: "CRM server" }], userId: t.member.user.id }),
    ]);
    expect(mine.body.items[0].lastUsedAt).not.toBeNull();
    // Another member of the org neither sees nor revokes it.
    expect((await api(t.owner.token).get("/api/v1/me/connected-apps")).body.items).toEqual([]);

    expect((await api(t.member.token).delete(`/api/v1/connected-apps/${mine.body.items[0].id}`)).status).toBe(204);
    const refused = await mcpRpc(app.origin, `/mcp/${serverId}`, tokens.access_token, "tools/list");
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toContain('error="invalid_token"');
    const refresh = await postForm(site.metadata.token_endpoint, { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: client.client_id, resource });
    expect(refresh.status).toBe(400);
    expect((await api(t.member.token).get("/api/v1/me/connected-apps")).body.items).toEqual([]);
    const again = await redirectOf(site, await fetch(authorizeUrl(site, { client_id: client.client_id, code_challenge: pkce().challenge, resource }), { headers: { cookie }, redirect: "manual" }));
    expect(again.pathname).toBe("/oauth/consent");
    expect(await db().auditEvent.count({ where: { orgId: t.org.id, action: "oauth_app.revoke", targetId: client.client_id } })).toBe(1);
  });

  it("an org admin sees and revokes the apps of their org, not another org's (404)", async () => {
    const { t, serverId, tokens } = await connected("Cursor");
    const other = await connected("ChatGPT");
    const listed = await api(t.admin.token).get(`/api/v1/orgs/${t.org.id}/connected-apps`);
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((a: { clientName: string }) => a.clientName)).toEqual(["Cursor"]);
    expect((await api(t.admin.token).get(`/api/v1/orgs/${other.t.org.id}/connected-apps`)).status).toBe(404);
    expect((await api(t.member.token).get(`/api/v1/orgs/${t.org.id}/connected-apps`)).status).toBe(404);
    const theirs = (await api(other.t.admin.token).get(`/api/v1/orgs/${other.t.org.id}/connected-apps`)).body.items[0].id;
    expect((await api(t.admin.token).delete(`/api/v1/connected-apps/${theirs}`)).status).toBe(404);
    expect((await mcpRpc(app.origin, `/mcp/${other.serverId}`, other.tokens.access_token, "tools/list")).status).toBe(200);

    expect((await api(t.admin.token).delete(`/api/v1/connected-apps/${listed.body.items[0].id}`)).status).toBe(204);
    expect((await mcpRpc(app.origin, `/mcp/${serverId}`, tokens.access_token, "tools/list")).status).toBe(401);
  });

  it("lists search app names and people, and sort by app name both ways", async () => {
    const { t, cookie, resource, user } = await connected("Cursor");
    const zed = await publicClient(site, "Zed editor");
    await tokensFor(site, { cookie, clientId: zed.client_id, resource });
    const names = (body: { items: { clientName: string }[] }) => body.items.map((i) => i.clientName);
    const mine = api(t.member.token);
    expect(names((await mine.get("/api/v1/me/connected-apps?q=ZED")).body)).toEqual(["Zed editor"]);
    expect(names((await mine.get("/api/v1/me/connected-apps?sort=clientName&order=desc")).body)).toEqual(["Zed editor", "Cursor"]);
    const first = await mine.get("/api/v1/me/connected-apps?sort=clientName&limit=1");
    expect(names(first.body)).toEqual(["Cursor"]);
    expect(names((await mine.get(`/api/v1/me/connected-apps?sort=clientName&limit=1&cursor=${first.body.nextCursor}`)).body)).toEqual(["Zed editor"]);
    const org = `/api/v1/orgs/${t.org.id}/connected-apps`;
    expect(names((await api(t.admin.token).get(`${org}?q=${encodeURIComponent(user.email)}&sort=clientName`)).body)).toEqual(["Cursor", "Zed editor"]);
    expect((await api(t.admin.token).get(`${org}?q=nobody-like-this`)).body.items).toEqual([]);
    expect((await mine.get("/api/v1/me/connected-apps?sort=resource")).status).toBe(422);
  });

  it("RFC 7009: a public client revokes its own refresh token with its client_id alone", async () => {
    const { client, resource, tokens } = await connected("mcp-remote");
    const revoked = await postForm(site.metadata.revocation_endpoint, { token: tokens.refresh_token, token_type_hint: "refresh_token", client_id: client.client_id });
    expect(revoked.status).toBe(200);
    const refresh = await postForm(site.metadata.token_endpoint, { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: client.client_id, resource });
    expect(refresh.status).toBe(400);
    expect((await refresh.json()).error).toBe("invalid_grant");
  });

  it("a refresh token used twice is refused, and the one it was rotated into dies with it (OAuth 2.1 §4.3.1: reuse means theft)", async () => {
    const { client, resource, tokens } = await connected("stolen");
    const refresh = (token: string) => postForm(site.metadata.token_endpoint, { grant_type: "refresh_token", refresh_token: token, client_id: client.client_id, resource });
    const first = await refresh(tokens.refresh_token);
    expect(first.status).toBe(200);
    const rotated = (await first.json()).refresh_token as string;
    expect(rotated).not.toBe(tokens.refresh_token);
    const replayed = await refresh(tokens.refresh_token);
    expect(replayed.status).toBe(400);
    expect((await replayed.json()).error).toBe("invalid_grant");
    const afterReplay = await refresh(rotated);
    expect(afterReplay.status).toBe(400);
    expect((await afterReplay.json()).error).toBe("invalid_grant");
  });

  it("a password change revokes every app the person allowed: the next request is 401, refresh fails, a colleague's app keeps working (issue 23)", async () => {
    const { t, serverId, user, client, resource, tokens } = await connected("Left open on a stolen laptop");
    const colleague = await connected("Colleague's app");
    await db().user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword("the old passphrase") } });
    expect(await toolNames(app.origin, `/mcp/${serverId}`, tokens.access_token)).toHaveLength(1);

    const changed = await changePassword({ kind: "user", userId: user.id, apiKey: null }, { currentPassword: "the old passphrase", newPassword: "a brand new passphrase" }, { clientIp: "203.0.113.7", sessionCookie: undefined });
    expect(changed.revokedApps).toBe(1);
    expect((await mcpRpc(app.origin, `/mcp/${serverId}`, tokens.access_token, "tools/list")).status).toBe(401);
    const refresh = await postForm(site.metadata.token_endpoint, { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: client.client_id, resource });
    expect(refresh.status).toBe(400);
    expect((await api(t.member.token).get("/api/v1/me/connected-apps")).body.items).toEqual([]);
    expect((await mcpRpc(app.origin, `/mcp/${colleague.serverId}`, colleague.tokens.access_token, "tools/list")).status).toBe(200);
  });

  it("allowing a revoked app again does not bring its old access token back: only tokens issued since count (review finding)", async () => {
    const { t, serverId, cookie, client, resource, tokens } = await connected("Allowed twice");
    const listed = await api(t.member.token).get("/api/v1/me/connected-apps");
    expect((await api(t.member.token).delete(`/api/v1/connected-apps/${listed.body.items[0].id}`)).status).toBe(204);
    expect((await mcpRpc(app.origin, `/mcp/${serverId}`, tokens.access_token, "tools/list")).status).toBe(401);
    // Token times are whole seconds: the new allowance must fall in a later second than the old token.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const again = await tokensFor(site, { cookie, clientId: client.client_id, resource });
    expect(await toolNames(app.origin, `/mcp/${serverId}`, again.access_token)).toHaveLength(1);
    expect((await mcpRpc(app.origin, `/mcp/${serverId}`, tokens.access_token, "tools/list")).status).toBe(401);
  });
});
