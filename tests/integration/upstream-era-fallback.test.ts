import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "@/tests/helpers/api";
import { createTenant, type Tenant } from "@/tests/helpers/factories";
import { connectV1, connectV2 } from "@/tests/helpers/mcp-clients";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";
import { type HeldListenUpstream, startHeldListenUpstream } from "@/tests/fixtures/held-listen-upstream";

/**
 * Issue 21 point 2: "When the 2026-07-28 path fails to carry calls at all (errors, not
 * slowness), `auto` falls back to `initialize` and says so on the connector." The upstream
 * answers `server/discover` (so the probe picks 2026-07-28) but refuses every other
 * 2026-07-28 request with a plain 400, as a proxy that does not know the new envelope would;
 * `initialize` works. The connector's `eraFallback` (API answer, OpenAPI) says so.
 */

let app: RouteServer;
const upstreams: HeldListenUpstream[] = [];
beforeAll(async () => {
  app = await startRouteServer();
}, 60_000);
afterAll(async () => {
  await Promise.all([app.close(), ...upstreams.map((u) => u.close())]);
});

async function setup(refuseModern: boolean) {
  const upstream = await startHeldListenUpstream("sse");
  upstreams.push(upstream);
  upstream.refuseModern = refuseModern;
  const t: Tenant = await createTenant();
  const created = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { name: "Proxied", type: "mcp", config: { url: upstream.url } });
  expect(created.status, created.text).toBe(201);
  const server = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Proxied", connectorIds: [created.body.id] });
  expect(server.status, server.text).toBe(201);
  const connector = async () => (await api(t.admin.token).get(`/api/v1/connectors/${created.body.id}`)).body;
  return { upstream, t, created: created.body, connector, url: `${app.origin}/mcp/${server.body.id}` };
}

const text = (r: { content?: unknown }) => JSON.stringify(r.content);

describe("an upstream whose 2026-07-28 path refuses calls", () => {
  it("found at creation: discovery falls back to initialize, the connector says so, calls on both wires work", async () => {
    const { t, created, url } = await setup(true);
    expect(created.config.protocolEra).toBe("auto");
    expect(created.protocolVersion).toBe("2025-11-25");
    expect(created.eraFallback).toMatchObject({ from: "2026-07-28", reason: expect.stringContaining("400") });
    expect(created.tools.map((x: { name: string }) => x.name)).toEqual(["echo"]);
    const modern = await connectV2(url, t.member.token);
    const legacy = await connectV1(url, t.member.token);
    try {
      expect(text(await modern.client.callTool({ name: "echo", arguments: { text: "modern" } }))).toContain("echo: modern");
      expect(text((await legacy.client.callTool({ name: "echo", arguments: { text: "legacy" } })) as { content?: unknown })).toContain("echo: legacy");
    } finally {
      await Promise.all([modern.close(), legacy.close()]);
    }
  });

  it("found by a call: the call is answered over initialize, the connector says so, and later calls skip the 2026-07-28 path; a new url clears it", async () => {
    const { upstream, t, created, connector, url } = await setup(false);
    expect(created.protocolVersion).toBe("2026-07-28");
    expect(created.eraFallback).toBeNull();
    const client = await connectV2(url, t.member.token);
    try {
      expect(text(await client.client.callTool({ name: "echo", arguments: { text: "one" } }))).toContain("echo: one");
      upstream.refuseModern = true;
      expect(text(await client.client.callTool({ name: "echo", arguments: { text: "two" } }))).toContain("echo: two");
      const after = await connector();
      expect(after.eraFallback).toMatchObject({ from: "2026-07-28", reason: expect.stringContaining("400") });
      expect(after.protocolVersion).toBe("2025-11-25");
      const calls = upstream.methods.length;
      expect(text(await client.client.callTool({ name: "echo", arguments: { text: "three" } }))).toContain("echo: three");
      expect(upstream.methods.slice(calls)).toEqual(["tools/call"]); // straight over the 2025-era connection
      // Pointing the connector anew (the same server here) tries 2026-07-28 again.
      upstream.refuseModern = false;
      const patched = await api(t.admin.token).patch(`/api/v1/connectors/${created.id}`, { config: { url: upstream.url } });
      expect(patched.status, patched.text).toBe(200);
      expect(patched.body.eraFallback).toBeNull();
    } finally {
      await client.close();
    }
  });

  it("an admin's reload tries 2026-07-28 again: the fallback is cleared once the upstream carries it, kept while it still refuses", async () => {
    const { upstream, t, created } = await setup(true);
    expect(created.eraFallback).not.toBeNull();
    const reload = () => api(t.admin.token).post(`/api/v1/connectors/${created.id}/reload`, {});
    const still = await reload();
    expect(still.status, still.text).toBe(200);
    expect(still.body.eraFallback).toMatchObject({ from: "2026-07-28" });
    upstream.refuseModern = false;
    const cleared = await reload();
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.eraFallback).toBeNull();
    expect(cleared.body.protocolVersion).toBe("2026-07-28");
  });

  it("a request refused on both paths (one payload a firewall blocks) leaves the connector on 2026-07-28 for everyone", async () => {
    const { upstream, t, connector, url } = await setup(false);
    upstream.refusePayload = "blocked-by-firewall";
    const client = await connectV2(url, t.member.token);
    try {
      const refused = await client.client.callTool({ name: "echo", arguments: { text: "blocked-by-firewall" } }).then(
        (result) => JSON.stringify(result),
        (e: Error) => e.message,
      );
      expect(refused).not.toContain("echo: blocked-by-firewall");
      // The 2026-07-28 refusal recorded a fallback; initialize refused the same request: it is taken back.
      expect(upstream.methods).toContain("initialize");
      expect((await connector()).eraFallback).toBeNull();
      const calls = upstream.methods.length;
      expect(text(await client.client.callTool({ name: "echo", arguments: { text: "fine" } }))).toContain("echo: fine");
      expect(upstream.methods.slice(calls)).not.toContain("initialize");
      expect((await connector()).protocolVersion).toBe("2026-07-28");
    } finally {
      await client.close();
    }
  });
});
