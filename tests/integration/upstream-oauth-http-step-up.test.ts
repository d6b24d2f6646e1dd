import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { api } from "@/tests/helpers/api";
import { createTenant, type Tenant } from "@/tests/helpers/factories";
import { v2Client } from "@/tests/helpers/flight-scenario";
import { sessionCookieFor } from "@/tests/helpers/oauth-flow";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";
import { signInUpstream, startOAuthUpstream, type OAuthUpstream } from "@/tests/helpers/oauth-upstream";

/**
 * Issue 24 point 2 for `http` connectors: an API on 127.0.0.1 behind its authorization server
 * answers 403 `insufficient_scope` (scope "write") to a token without "write". The caller's
 * connection keeps the scope asked (audit `connection.step_up`) and stays connected: the refused
 * call gets the connect answer naming the wider scope, the person's other calls go on with their
 * current token, /me/connections says the connection needs more access; connecting again asks
 * for the union, and then the call succeeds. A 403 without insufficient_scope stays an ordinary
 * upstream error.
 */

let app: RouteServer;
let upstream: OAuthUpstream;
let t: Tenant;
let connectorId: string;
let url: string;

const URL_ELICITATION = { elicitation: { url: {} } };
const TOOLS = [
  { name: "write_note", request: { method: "POST", path: "/api/notes" } },
  { name: "write_draft", request: { method: "POST", path: "/api/drafts" } },
  { name: "forbidden", request: { method: "GET", path: "/api/forbidden" } },
  { name: "whoami", request: { method: "GET", path: "/api/me" } },
];

beforeAll(async () => {
  app = await startRouteServer();
  // PUBLIC_URL: the connect link in MCP answers is made without a request, on the configured address
  // (without it: tests/integration/upstream-oauth-origins.test.ts).
  process.env.PUBLIC_URL = app.origin;
  upstream = await startOAuthUpstream();
  t = await createTenant();
  const registered = await fetch(`${upstream.origin}/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ redirect_uris: [`${app.origin}/api/connections/callback`], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"] }),
  }).then((r) => r.json());
  const created = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
    type: "http",
    name: "Notes API",
    config: { baseUrl: upstream.origin },
    auth: { type: "oauth", connection: "per_user", clientId: registered.client_id, authorizationServer: `${upstream.origin}/`, scopes: ["read"] },
    tools: TOOLS,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  connectorId = created.body.id;
  const server = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Notes", connectorIds: [connectorId] });
  url = `${app.origin}/mcp/${server.body.id}`;
  for (const [person, upstreamUser] of [[t.admin, "alice"], [t.member, "bob"], [t.owner, "carol"]] as const) {
    const started = await api(person.token).post(`/api/v1/connectors/${connectorId}/connections`, {});
    expect(new URL(started.body.authorizationUrl).searchParams.get("scope")).toBe("read");
    expect((await finish(await signInUpstream(started.body.authorizationUrl, upstreamUser), person.user.id)).status).toBe(200);
  }
});
afterAll(async () => {
  delete process.env.PUBLIC_URL;
  await upstream?.close();
  await app?.close();
});

const linkOf = (userId: string) => `${app.origin}/api/connections/start?connector=${connectorId}&person=${userId}`;
const textOf = (result: unknown) => ((result as { content?: { text?: string }[] }).content?.[0]?.text ?? "");

async function finish(back: URL, userId: string): Promise<Response> {
  return fetch(back, { headers: { cookie: await sessionCookieFor(userId) }, redirect: "manual" });
}

async function toolName(client: Awaited<ReturnType<typeof v2Client>>, suffix: string): Promise<string> {
  return (await client.listTools()).tools.find((tool) => tool.name.endsWith(suffix))!.name;
}

async function statusOf(userId: string): Promise<{ status: string; scopes: string[] }> {
  const row = await db().upstreamConnection.findFirst({ where: { connectorId, userId }, select: { status: true, scopes: true } });
  return { status: row!.status, scopes: [...(row!.scopes as string[])].sort() };
}

/** The person's connection to the connector as /me/connections answers it. */
async function myConnection(person: Tenant["admin"]): Promise<{ status: string; scopes: string[]; stepUpScopes?: string[] }> {
  const mine = await api(person.token).get("/api/v1/me/connections");
  expect(mine.status, JSON.stringify(mine.body)).toBe(200);
  return mine.body.items.find((c: { connectorId: string }) => c.connectorId === connectorId);
}

async function stepUpEvents(): Promise<{ actorId: string | null; targetId: string; data: Record<string, unknown> }[]> {
  const audit = await api(t.admin.token).get(`/api/v1/orgs/${t.org.id}/audit?action=connection.step_up`);
  expect(audit.status, JSON.stringify(audit.body)).toBe(200);
  return audit.body.items;
}

describe("step-up on an http connector: an upstream 403 insufficient_scope", () => {
  it("answers isError with the connect link naming the wider scope, audits it, keeps the person's other calls working, and after connecting again with the union the call succeeds", async () => {
    const client = await v2Client(url, t.admin.token);
    const tool = await toolName(client, "write_note");
    const refused = await client.callTool({ name: tool, arguments: {} });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('scope "read write"');
    expect(textOf(refused)).toContain(linkOf(t.admin.user.id));
    // Not cut off: the connection stays connected, and the person sees it needs more access.
    expect(await statusOf(t.admin.user.id)).toEqual({ status: "connected", scopes: ["read"] });
    const pending = await myConnection(t.admin);
    expect(pending).toMatchObject({ status: "connected", scopes: ["read"] });
    expect([...pending.stepUpScopes!].sort()).toEqual(["read", "write"]);

    const events = await stepUpEvents();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorId: t.admin.user.id, targetId: connectorId, data: { connector: "Notes API", scope: "write" } });
    expect(String(events[0].data.nextScope).split(" ").sort()).toEqual(["read", "write"]);
    for (const secret of upstream.issued) expect(JSON.stringify(events)).not.toContain(secret);

    // A call the token's scopes allow goes on with the same token (none issued or refreshed); the one that needs more still gets the link.
    const [issued, refreshes] = [upstream.issued.length, upstream.refreshes];
    const me = await client.callTool({ name: await toolName(client, "whoami"), arguments: {} });
    expect(me.isError).toBeFalsy();
    expect(JSON.parse(textOf(me))).toEqual({ user: "alice" });
    const again = await client.callTool({ name: tool, arguments: {} });
    expect(again.isError).toBe(true);
    expect(textOf(again)).toContain(linkOf(t.admin.user.id));
    expect([upstream.issued.length, upstream.refreshes]).toEqual([issued, refreshes]);

    const started = await api(t.admin.token).post(`/api/v1/connectors/${connectorId}/connections`, {});
    expect(new URL(started.body.authorizationUrl).searchParams.get("scope")!.split(" ").sort()).toEqual(["read", "write"]);
    expect((await finish(await signInUpstream(started.body.authorizationUrl, "alice"), t.admin.user.id)).status).toBe(200);
    const done = await client.callTool({ name: tool, arguments: {} });
    expect(done.isError).toBeFalsy();
    expect(JSON.parse(textOf(done))).toEqual({ written: true, by: "alice" });
    expect(await statusOf(t.admin.user.id)).toEqual({ status: "connected", scopes: ["read", "write"] });
    expect((await myConnection(t.admin)).stepUpScopes).toBeUndefined();
    await client.close();
  });

  it("a 2026-07-28 client that declared URL elicitation gets the connect link as an input request; after following it the retry succeeds", async () => {
    const client = await v2Client(url, t.member.token, URL_ELICITATION);
    const asked: { url: string; message: string }[] = [];
    const scopesAsked: string[] = [];
    client.setRequestHandler("elicitation/create", async (request) => {
      const params = request.params as { url: string; message: string };
      asked.push(params);
      const start = await fetch(params.url, { headers: { cookie: await sessionCookieFor(t.member.user.id) }, redirect: "manual" });
      const authorizationUrl = start.headers.get("location")!;
      scopesAsked.push(new URL(authorizationUrl).searchParams.get("scope")!);
      expect((await finish(await signInUpstream(authorizationUrl, "bob"), t.member.user.id)).status).toBe(200);
      return { action: "accept" };
    });
    const result = await client.callTool({ name: await toolName(client, "write_note"), arguments: {} });
    expect(asked).toHaveLength(1);
    expect(asked[0].url).toBe(linkOf(t.member.user.id));
    expect(asked[0].message).toContain('scope "read write"');
    expect(scopesAsked.map((s) => s.split(" ").sort().join(" "))).toEqual(["read write"]);
    expect(JSON.parse(textOf(result))).toEqual({ written: true, by: "bob" });
    expect((await stepUpEvents()).filter((e) => e.actorId === t.member.user.id)).toHaveLength(1);
    await client.close();
  });

  it("without a scope named the connection still keeps a pending step-up (the same scopes asked again); a 403 without insufficient_scope stays an ordinary upstream error", async () => {
    const client = await v2Client(url, t.owner.token);
    const forbidden = await client.callTool({ name: await toolName(client, "forbidden"), arguments: {} });
    expect(forbidden.isError).toBe(true);
    expect(textOf(forbidden)).toContain("403");
    expect(textOf(forbidden)).not.toContain("/api/connections/start");
    expect(await statusOf(t.owner.user.id)).toEqual({ status: "connected", scopes: ["read"] });
    expect((await stepUpEvents()).filter((e) => e.actorId === t.owner.user.id)).toHaveLength(0);

    const draft = await client.callTool({ name: await toolName(client, "write_draft"), arguments: {} });
    expect(draft.isError).toBe(true);
    expect(textOf(draft)).toContain(linkOf(t.owner.user.id));
    expect(await myConnection(t.owner)).toMatchObject({ status: "connected", scopes: ["read"], stepUpScopes: ["read"] });
    const [event] = (await stepUpEvents()).filter((e) => e.actorId === t.owner.user.id);
    expect(event.data).toMatchObject({ scope: null, nextScope: "read" });
    await client.close();
  });
});
