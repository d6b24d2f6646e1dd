import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upstreamPool } from "@/lib/connectors/runtime/default-pool";
import { api } from "@/tests/helpers/api";
import { createTenant, type Tenant } from "@/tests/helpers/factories";
import { v2Client } from "@/tests/helpers/flight-scenario";
import { rpcError } from "@/tests/helpers/mcp-clients";
import { mcpRpc, sessionCookieFor } from "@/tests/helpers/oauth-flow";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";
import { signInUpstream, startOAuthUpstream, type OAuthUpstream } from "@/tests/helpers/oauth-upstream";

/**
 * Issue 24 point 4, last sentence: a `per_user` connector's upstream resources, resource
 * templates and prompts are listed for each caller from their own connection (cached per
 * person), never from another person's — the upstream here lists each of its users their own.
 */

let app: RouteServer;
let upstream: OAuthUpstream;
let t: Tenant;
let url: string;

beforeAll(async () => {
  app = await startRouteServer();
  // The app runs in this process behind a route server on a random port: PUBLIC_URL names that origin for the
  // connect links. Without PUBLIC_URL: tests/integration/upstream-oauth-origins.test.ts, tests/e2e/upstream-connect-link.test.ts.
  process.env.PUBLIC_URL = app.origin;
  upstream = await startOAuthUpstream({ perUserCatalog: true });
  t = await createTenant();
  const created = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { type: "mcp", name: "Notes", config: { url: upstream.mcpUrl }, auth: { type: "oauth", connection: "per_user" } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const server = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "S", connectorIds: [created.body.id] });
  url = `${app.origin}/mcp/${server.body.id}`;
  for (const [actor, user] of [[t.admin, "alice"], [t.member, "bob"]] as const) {
    const started = await api(actor.token).post(`/api/v1/connectors/${created.body.id}/connections`, {});
    const back = await signInUpstream(started.body.authorizationUrl, user);
    expect((await fetch(back, { headers: { cookie: await sessionCookieFor(actor.user.id) }, redirect: "manual" })).status).toBe(200);
  }
}, 60_000);
afterAll(async () => {
  delete process.env.PUBLIC_URL;
  await upstreamPool().closeAll();
  await upstream?.close();
  await app?.close();
});

async function catalogOf(token: string) {
  const client = await v2Client(url, token);
  const resources = (await client.listResources()).resources.map((r) => r.uri).filter((u) => u.startsWith("notes://"));
  const templates = (await client.listResourceTemplates()).resourceTemplates.map((r) => r.uriTemplate);
  const prompts = client.getServerCapabilities()?.prompts ? (await client.listPrompts()).prompts.map((p) => p.name) : [];
  return { client, resources, templates, prompts };
}

const textOf = (contents: unknown[]) => (contents[0] as { text?: string }).text;

describe("a per_user connector's resources, templates and prompts", () => {
  it("are each person's own, read and fetched through their own connection", async () => {
    const alice = await catalogOf(t.admin.token);
    expect(alice).toMatchObject({ resources: ["notes://alice/today"], templates: ["notes://alice/days/{day}"], prompts: ["alice_greeting"] });
    const bob = await catalogOf(t.member.token);
    expect(bob).toMatchObject({ resources: ["notes://bob/today"], templates: ["notes://bob/days/{day}"], prompts: ["bob_greeting"] });
    expect(textOf((await bob.client.readResource({ uri: "notes://bob/today" })).contents)).toBe("today's notes of bob");
    expect(textOf((await bob.client.readResource({ uri: "notes://bob/days/monday" })).contents)).toBe("notes of bob on monday");
    expect((await bob.client.getPrompt({ name: "bob_greeting" })).messages[0].content).toMatchObject({ text: "hello bob" });
    // Another person's resource or prompt is not there for bob.
    expect((await rpcError(bob.client.readResource({ uri: "notes://alice/today" }))).code).toBeLessThan(0);
    expect((await rpcError(bob.client.getPrompt({ name: "alice_greeting" }))).code).toBe(-32602);
    await Promise.all([alice.client.close(), bob.client.close()]);
  });

  it("a person without a connection, and the instance credential, see none of anyone's", async () => {
    for (const token of [t.owner.token, process.env.INSTANCE_API_KEY!]) {
      const none = await catalogOf(token);
      expect(none).toMatchObject({ resources: [], templates: [], prompts: [] });
      await none.client.close();
    }
  });

  it("a person's upstream that hangs holds up one request, not each: the failed listing is remembered for a while", async () => {
    const connectorId = (await api(t.admin.token).get(`/api/v1/orgs/${t.org.id}/connectors`)).body.items.find((c: { name: string }) => c.name === "Notes").id;
    const started = await api(t.owner.token).post(`/api/v1/connectors/${connectorId}/connections`, {});
    const back = await signInUpstream(started.body.authorizationUrl, "carol");
    expect((await fetch(back, { headers: { cookie: await sessionCookieFor(t.owner.user.id) }, redirect: "manual" })).status).toBe(200);
    await upstreamPool().closeAll();
    upstream.hangMcp = true;
    try {
      const timed = async () => {
        const start = Date.now();
        const { status } = await mcpRpc(app.origin, new URL(url).pathname, t.owner.token, "tools/list");
        expect(status).toBe(200);
        return Date.now() - start;
      };
      // The first request waits for the upstream's connect timeout; the next ones do not.
      expect(await timed()).toBeGreaterThan(5_000);
      expect(await timed()).toBeLessThan(2_000);
      expect(await timed()).toBeLessThan(2_000);
    } finally {
      upstream.hangMcp = false;
    }
  }, 60_000);
});
