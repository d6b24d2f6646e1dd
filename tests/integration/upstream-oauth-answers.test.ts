import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { upstreamPool } from "@/lib/connectors/runtime/default-pool";
import { api } from "@/tests/helpers/api";
import { createTenant, type Tenant } from "@/tests/helpers/factories";
import { v1Client, v2Client, v2LegacyClient } from "@/tests/helpers/flight-scenario";
import { rpcError } from "@/tests/helpers/mcp-clients";
import { sessionCookieFor } from "@/tests/helpers/oauth-flow";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";
import { signInUpstream, startOAuthUpstream, type OAuthUpstream } from "@/tests/helpers/oauth-upstream";

/**
 * Issue 24 point 4, the answers to a caller with no usable connection, in the order,
 * with the MCP SDKs' own clients: a 2025-era client that declared URL elicitation (in a session,
 * where its capabilities are known) gets -32042 whose `url` elicitation is the
 * connect link (a stateless 2025-era request carries no capabilities: the isError answer); a 2026-07-28 client that declared it gets the same elicitation as an input
 * request, and its retry after following the link succeeds; any other client an isError result
 * naming the connector and the link; the instance credential is told to call as a person.
 * Point 2's step-up: an upstream 403 insufficient_scope asks the person to connect again (audit
 * `connection.step_up`) for that call only — their connection stays connected and serves their
 * other calls with the same token, /me/connections shows it needs more access — and that connect
 * asks for the union of scopes (http connectors: upstream-oauth-http-step-up.test.ts).
 */

let app: RouteServer;
let upstream: OAuthUpstream;
let t: Tenant;
let connectorId: string;
let url: string;

const URL_ELICITATION = { elicitation: { url: {} } };

beforeAll(async () => {
  app = await startRouteServer();
  // The app runs in this process behind a route server on a random port: PUBLIC_URL names that origin for the
  // connect links. Without PUBLIC_URL: tests/integration/upstream-oauth-origins.test.ts, tests/e2e/upstream-connect-link.test.ts.
  process.env.PUBLIC_URL = app.origin;
  upstream = await startOAuthUpstream({ stepUpTool: true });
  t = await createTenant();
  const created = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { type: "mcp", name: "Upstream", config: { url: upstream.mcpUrl }, auth: { type: "oauth", connection: "per_user" } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  connectorId = created.body.id;
  const server = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "S", connectorIds: [connectorId] });
  url = `${app.origin}/mcp/${server.body.id}`;
  const started = await api(t.admin.token).post(`/api/v1/connectors/${connectorId}/connections`, {});
  expect((await finish(await signInUpstream(started.body.authorizationUrl, "alice"), t.admin.user.id)).status).toBe(200);
});
afterEach(() => vi.unstubAllEnvs());
afterAll(async () => {
  delete process.env.PUBLIC_URL;
  await upstreamPool().closeAll();
  await upstream?.close();
  await app?.close();
});

const linkOf = (userId: string) => `${app.origin}/api/connections/start?connector=${connectorId}&person=${userId}`;

/** The upstream's redirect back to our callback, in `userId`'s browser session. */
async function finish(back: URL, userId: string): Promise<Response> {
  return fetch(back, { headers: { cookie: await sessionCookieFor(userId) }, redirect: "manual" });
}

/** What the person does with a connect link in their browser: signed in, on to the upstream, back; the page says it worked. */
async function follow(link: string, userId: string, upstreamUser: string): Promise<void> {
  const start = await fetch(link, { headers: { cookie: await sessionCookieFor(userId) }, redirect: "manual" });
  expect(start.status).toBe(302);
  const done = await finish(await signInUpstream(start.headers.get("location")!, upstreamUser), userId);
  expect(done.status).toBe(200);
  expect(await done.text()).toContain("retry");
}

const textOf = (result: unknown) => ((result as { content?: { text?: string }[] }).content?.[0]?.text ?? "");

describe("a caller with no usable connection is not sent upstream, and is told how to connect", () => {
  it("a 2025-era client in a session that declared URL elicitation gets -32042 with the connect link (v1 and v2 SDKs)", async () => {
    // A session: how a 2025-era client's declared capabilities are known (stateless serving forgets initialize).
    vi.stubEnv("MCP_STATEFUL_SESSIONS", "true");
    const issued = upstream.issued.length;
    for (const open of [() => v1Client(url, t.member.token, URL_ELICITATION), () => v2LegacyClient(url, t.member.token, URL_ELICITATION)]) {
      const client = await open();
      const error = await rpcError(client.callTool({ name: "whoami", arguments: {} }));
      expect(error.code).toBe(-32042);
      const [elicitation] = (error.data as { elicitations: Record<string, unknown>[] }).elicitations;
      expect(elicitation).toMatchObject({ mode: "url", url: linkOf(t.member.user.id) });
      expect(elicitation.message).toContain('"Upstream"');
      expect(typeof elicitation.elicitationId).toBe("string");
      await client.close();
    }
    expect(upstream.issued.length).toBe(issued);
  });

  it("a stateless 2025-era client gets the isError answer: without a session its capabilities are unknown", async () => {
    // Stateless serving (the default): the client's initialize was answered and forgotten, so
    // no later request says what it declared — only a 2026-07-28 request carries its capabilities.
    const client = await v1Client(url, t.member.token, URL_ELICITATION);
    const result = await client.callTool({ name: "whoami", arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('"Upstream"');
    expect(textOf(result)).toContain(linkOf(t.member.user.id));
    await client.close();
  });

  it("a 2026-07-28 client that declared URL elicitation gets it as an input request; after following the link its retry succeeds", async () => {
    const client = await v2Client(url, t.member.token, URL_ELICITATION);
    const asked: Record<string, unknown>[] = [];
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(request.params as Record<string, unknown>);
      await follow(String((request.params as { url: string }).url), t.member.user.id, "bob");
      return { action: "accept" };
    });
    const result = await client.callTool({ name: "whoami", arguments: {} });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ mode: "url", url: linkOf(t.member.user.id) });
    expect(textOf(result)).toBe("upstream user: bob");
    await client.close();
  });

  it("any other client gets an isError result naming the connector and the link; the instance credential is told to call as a person", async () => {
    // A session: how a 2025-era client's declared capabilities are known (stateless serving forgets initialize).
    vi.stubEnv("MCP_STATEFUL_SESSIONS", "true");
    const modern = await v2Client(url, t.owner.token);
    const plain = await modern.callTool({ name: "whoami", arguments: {} });
    expect(plain.isError).toBe(true);
    expect(textOf(plain)).toContain('"Upstream"');
    expect(textOf(plain)).toContain(linkOf(t.owner.user.id));
    await modern.close();
    // A 2025-era session whose client declared form elicitation only.
    const session = await v1Client(url, t.owner.token, { elicitation: { form: {} } });
    session.setRequestHandler(ElicitRequestSchema, async () => ({ action: "decline" }));
    const form = await session.callTool({ name: "whoami", arguments: {} });
    expect(form.isError).toBe(true);
    expect(textOf(form)).toContain(linkOf(t.owner.user.id));
    await session.close();
    const instance = await v1Client(url, process.env.INSTANCE_API_KEY!, URL_ELICITATION);
    const answer = await instance.callTool({ name: "whoami", arguments: {} });
    expect(answer.isError).toBe(true);
    expect(textOf(answer)).toContain("as a person");
    await instance.close();
  });
});

describe("step-up: an upstream 403 insufficient_scope", () => {
  it("asks the person to connect again for that call only; their other calls keep their token; that connect asks for the union of scopes, and the call then succeeds", async () => {
    const client = await v2Client(url, t.admin.token);
    const refused = await client.callTool({ name: "admin_action", arguments: {} });
    expect(upstream.stepUpChallenges).toBe(1);
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('scope "profile admin"');
    expect(textOf(refused)).toContain(linkOf(t.admin.user.id));
    expect(textOf(refused)).toContain("your other requests still work");
    const mineOf = async () => (await api(t.admin.token).get("/api/v1/me/connections")).body.items.find((c: { connectorId: string }) => c.connectorId === connectorId);
    // Not broken: still connected, and it says the upstream wants more access (what the next connect asks).
    const pending = await mineOf();
    expect(pending).toMatchObject({ status: "connected", scopes: ["profile"] });
    expect([...pending.stepUpScopes].sort()).toEqual(["admin", "profile"]);

    // A call the token's scopes allow still goes through, with the same token (none issued or refreshed).
    const [issued, refreshes] = [upstream.issued.length, upstream.refreshes];
    expect(textOf(await client.callTool({ name: "whoami", arguments: {} }))).toBe("upstream user: alice");
    expect([upstream.issued.length, upstream.refreshes]).toEqual([issued, refreshes]);
    // Audited like the other connection events, with the scope asked and never a token.
    const audit = await api(t.admin.token).get(`/api/v1/orgs/${t.org.id}/audit?action=connection.step_up`);
    expect(audit.body.items).toHaveLength(1);
    expect(audit.body.items[0]).toMatchObject({ actorId: t.admin.user.id, targetType: "connector", targetId: connectorId, data: { connector: "Upstream", scope: "profile admin" } });
    expect(audit.body.items[0].data.nextScope.split(" ").sort()).toEqual(["admin", "profile"]);
    for (const secret of upstream.issued) expect(JSON.stringify(audit.body.items)).not.toContain(secret);

    const started = await api(t.admin.token).post(`/api/v1/connectors/${connectorId}/connections`, {});
    expect(new URL(started.body.authorizationUrl).searchParams.get("scope")!.split(" ").sort()).toEqual(["admin", "profile"]);
    expect((await finish(await signInUpstream(started.body.authorizationUrl, "alice"), t.admin.user.id)).status).toBe(200);
    expect(textOf(await client.callTool({ name: "admin_action", arguments: {} }))).toBe("admin action by alice");
    const row = await db().upstreamConnection.findFirst({ where: { connectorId, userId: t.admin.user.id }, select: { status: true, scopes: true } });
    expect(row).toMatchObject({ status: "connected" });
    expect((row!.scopes as string[]).sort()).toEqual(["admin", "profile"]);
    expect((await mineOf()).stepUpScopes).toBeUndefined();
    await client.close();
  });
});
