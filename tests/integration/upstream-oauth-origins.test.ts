import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "@/tests/helpers/api";
import { createTenant, type Tenant } from "@/tests/helpers/factories";
import { sessionCookieFor } from "@/tests/helpers/oauth-flow";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";
import { signInUpstream, startOAuthUpstream, type OAuthUpstream } from "@/tests/helpers/oauth-upstream";
import { listMyConnectionSlots } from "@/lib/connectors/upstream-auth/connections-overview";

/**
 * Issue 24 point 2's last sentence, as `npm start` runs with no settings (no PUBLIC_URL), the app
 * reached by both of its names: a connection started at http://localhost:PORT comes back to
 * localhost, one started at http://127.0.0.1:PORT to 127.0.0.1, and the upstream's dynamic
 * registration is made again for the second origin (its redirect_uri follows) and kept for each.
 * Also what the console's Connections page reads for a person (lib/connectors/upstream-auth/connections-overview.ts).
 */

let app: RouteServer;
let upstream: OAuthUpstream;
let t: Tenant;
let connectorId: string;
let sharedId: string;
let port: string;

beforeAll(async () => {
  delete process.env.PUBLIC_URL;
  app = await startRouteServer();
  port = new URL(app.origin).port;
  upstream = await startOAuthUpstream();
  t = await createTenant();
  const created = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { type: "mcp", name: "Upstream", config: { url: upstream.mcpUrl }, auth: { type: "oauth", connection: "per_user" } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  connectorId = created.body.id;
  const shared = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { type: "mcp", name: "Shared one", config: { url: upstream.mcpUrl }, auth: { type: "oauth", connection: "shared" } });
  sharedId = shared.body.id;
});
afterAll(async () => {
  await upstream?.close();
  await app?.close();
});

/** Starts at `origin` with the person's key, signs in upstream, completes the callback in their session; answers the callback URL the upstream used. */
async function connectAt(origin: string, actor: Tenant["admin"], upstreamUser: string): Promise<URL> {
  const started = await fetch(`${origin}/api/v1/connectors/${connectorId}/connections`, { method: "POST", headers: { authorization: `Bearer ${actor.token}`, "content-type": "application/json" }, body: "{}" });
  const body = await started.json();
  expect(started.status, JSON.stringify(body)).toBe(201);
  expect(new URL(body.authorizationUrl).searchParams.get("redirect_uri")).toBe(`${origin}/api/connections/callback`);
  const back = await signInUpstream(body.authorizationUrl, upstreamUser);
  const done = await fetch(back, { headers: { cookie: await sessionCookieFor(actor.user.id) }, redirect: "manual" });
  expect(done.status, await done.clone().text()).toBe(200);
  return back;
}

describe("without PUBLIC_URL, a connection's callback is on the origin the person used", () => {
  it("localhost comes back to localhost; 127.0.0.1 to 127.0.0.1, with a registration of its own; each is kept", async () => {
    const localhost = `http://localhost:${port}`;
    const loopback = `http://127.0.0.1:${port}`;
    expect((await connectAt(localhost, t.admin, "alice")).origin).toBe(localhost);
    expect(upstream.registeredRedirects).toEqual([[`${localhost}/api/connections/callback`]]);
    expect((await connectAt(loopback, t.member, "bob")).origin).toBe(loopback);
    expect(upstream.registeredRedirects).toEqual([[`${localhost}/api/connections/callback`], [`${loopback}/api/connections/callback`]]);
    // Each origin's registration is kept: connecting again on either registers nothing new.
    await connectAt(localhost, t.owner, "carol");
    await connectAt(loopback, t.admin, "alice");
    expect(upstream.registrations).toBe(2);
  }, 180_000);

  it("the Connections page's list: one's own per_user connection, and the shared connector that only owners and admins connect", async () => {
    const mine = (await listMyConnectionSlots({ kind: "user", userId: t.member.user.id, apiKey: null })).filter((s) => s.connector.orgId === t.org.id);
    expect(mine.map((s) => [s.connector.name, s.connector.connection, s.mayManage, s.connection?.status ?? null])).toEqual([
      ["Shared one", "shared", false, null],
      ["Upstream", "per_user", true, "connected"],
    ]);
    expect(mine[1].connection!.scopes).toEqual(["profile"]);
    const admins = await listMyConnectionSlots({ kind: "user", userId: t.admin.user.id, apiKey: null });
    expect(admins.find((s) => s.connector.id === sharedId)!.mayManage).toBe(true);
    // Another organization's person sees neither.
    const other = await createTenant();
    expect(await listMyConnectionSlots({ kind: "user", userId: other.member.user.id, apiKey: null })).toEqual([]);
  });
});
