import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STORED_RESOURCE_PLACEHOLDER } from "@/lib/resources/stored-resource-content";
import { INSTANCE_KEY } from "@/tests/helpers/factories";
import { connectV1, connectV2, type WireLog } from "@/tests/helpers/mcp-clients";
import {
  addStoredResource,
  crmAndBillingScenario,
  forgetSnapshot,
  HEADER_SECRET,
  insertStoredResourceRow,
  setWorkspace,
  uriOf,
} from "@/tests/helpers/resource-scenario";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";

/**
 * Seed 004 (MCP resources) end to end: real keys, real HTTP, a 2025-era client (v1 SDK,
 * 2025-11-25) and a 2026-07-28 client (v2 SDK) against the same /mcp/<serverId>. The catalog's
 * own rules are tested in depth in resources-visibility.test.ts; this file shows they reach
 * the wire unchanged in both eras.
 */

let app: RouteServer;
beforeAll(async () => {
  app = await startRouteServer();
});
afterAll(() => app.close());

interface Seen {
  uris: string[];
  listed: Array<{ uri: string; name: string; mimeType?: string; description?: string }>;
  instructions: string | undefined;
  /** Every content read of every listed resource, as one string to search. */
  everything: string;
  read(uri: string): Promise<{ ok: true; contents: unknown[] } | { ok: false }>;
}

/** What a key sees in each era (both must agree), with the raw wire messages recorded. */
async function bothEras(serverId: string, token: string, wire: { v1: WireLog; v2: WireLog } = { v1: { messages: [] }, v2: { messages: [] } }): Promise<Seen> {
  const url = `${app.origin}/mcp/${serverId}`;
  const v1 = await connectV1(url, token, {}, wire.v1);
  const v2 = await connectV2(url, token, {}, wire.v2);
  try {
    const [a, b] = [await v1.client.listResources(), await v2.client.listResources()];
    expect(b.resources).toEqual(a.resources);
    expect(v2.client.getInstructions()).toBe(v1.client.getInstructions());
    const contents = [];
    for (const r of a.resources) {
      const [ra, rb] = [await v1.client.readResource({ uri: r.uri }), await v2.client.readResource({ uri: r.uri })];
      expect(rb.contents).toEqual(ra.contents);
      contents.push(ra.contents);
    }
    // A read asked for later goes through a fresh pair of connections, both eras again.
    return {
      uris: a.resources.map((r) => r.uri),
      listed: a.resources,
      instructions: v1.client.getInstructions(),
      everything: JSON.stringify([a.resources, contents, v1.client.getInstructions()]),
      read: async (uri) => {
        const again = { v1: await connectV1(url, token), v2: await connectV2(url, token) };
        try {
          const results = await Promise.allSettled([again.v1.client.readResource({ uri }), again.v2.client.readResource({ uri })]);
          expect(results[0].status).toBe(results[1].status);
          return results[0].status === "fulfilled" ? { ok: true as const, contents: results[0].value.contents } : { ok: false as const };
        } finally {
          await Promise.all([again.v1.close(), again.v2.close()]);
        }
      },
    };
  } finally {
    await Promise.all([v1.close(), v2.close()]);
  }
}

describe("seed 004 over HTTP: What is published", () => {
  it("an admin gets the instructions resource (byte-for-byte the initialize instructions), each connector's instructions and the stored resources; markdown except stored ones", async () => {
    const { t, crm, billing, serverId } = await crmAndBillingScenario({ knowledgeGraphEnabled: true });
    const admin = await bothEras(serverId, t.admin.token);
    expect(admin.uris).toEqual([uriOf.instructions(serverId), uriOf.connector(serverId, crm), uriOf.connector(serverId, billing), uriOf.graph(serverId), "crm://schema", "billing://rates"]);
    for (const r of admin.listed.slice(0, 4)) expect(r).toMatchObject({ mimeType: "text/markdown", name: expect.any(String), description: expect.any(String) });
    expect(admin.listed.find((r) => r.uri === "crm://schema")).toEqual({ uri: "crm://schema", name: "CRM schema", description: "Tables", mimeType: "text/markdown" });
    const instructions = await admin.read(uriOf.instructions(serverId));
    expect(instructions).toEqual({ ok: true, contents: [{ uri: uriOf.instructions(serverId), mimeType: "text/markdown", text: admin.instructions }] });
  });

  it("the knowledge graph is published only when the workspace has it enabled", async () => {
    const { t, serverId } = await crmAndBillingScenario({ knowledgeGraphEnabled: false });
    expect((await bothEras(serverId, t.admin.token)).uris).not.toContain(uriOf.graph(serverId));
    await setWorkspace(t, { knowledgeGraphEnabled: true });
    expect((await bothEras(serverId, t.admin.token)).uris).toContain(uriOf.graph(serverId));
  });
});

describe("seed 004 over HTTP: Who sees what", () => {
  it("a member whose role grants no tool of connector X sees none of X's resources, and reading X's URIs answers not found like a URI that never existed", async () => {
    const { t, crm, serverId } = await crmAndBillingScenario();
    const wire = { v1: { messages: [] as any[] }, v2: { messages: [] as any[] } };
    const member = await bothEras(serverId, t.member.token, wire);
    expect(member.uris).not.toContain(uriOf.connector(serverId, crm));
    expect(member.uris).not.toContain("crm://schema");
    expect(member.everything).not.toContain("CRM");
    for (const uri of [uriOf.connector(serverId, crm), "crm://schema", "crm://never-existed"]) expect(await member.read(uri)).toEqual({ ok: false });
    // The wire codes themselves are checked in mcp-endpoints.test.ts (-32002 / -32602, data { uri }).
  });

  it("callers the roles do not restrict — an admin, a member with no role in a workspace without whitelists, the instance credential — see every assigned connector", async () => {
    const { t, serverId } = await crmAndBillingScenario({ memberRole: false });
    const admin = await bothEras(serverId, t.admin.token);
    expect((await bothEras(serverId, t.member.token)).uris).toEqual(admin.uris);
    expect((await bothEras(serverId, INSTANCE_KEY)).uris).toEqual(admin.uris);
    expect(admin.uris).toContain("crm://schema");
  });

  it("the instructions resource equals the initialize instructions for every caller", async () => {
    const { t, serverId } = await crmAndBillingScenario();
    for (const token of [t.admin.token, t.member.token, INSTANCE_KEY]) {
      const seen = await bothEras(serverId, token);
      const read = await seen.read(uriOf.instructions(serverId));
      expect(read.ok && (read.contents[0] as { text: string }).text).toBe(seen.instructions);
    }
  });
});

describe("seed 004 over HTTP: Stored resources", () => {
  it("rows put in with SQL are served or skipped as the seed says, and no secret reaches any response", async () => {
    const { t, crm, serverId } = await crmAndBillingScenario();
    const secret = "sk_live_fake_secret_7e1d";
    await insertStoredResourceRow(crm, { uri: "not a uri", fetchConfig: { text: "invalid row" } });
    await insertStoredResourceRow(crm, { uri: `anythingmcp://server/${serverId}/evil`, fetchConfig: { text: "reserved row" } });
    await insertStoredResourceRow(crm, { uri: "crm://remote", mimeType: "application/json", fetchConfig: { url: `https://internal.example.com/?token=${secret}` } });
    await insertStoredResourceRow(crm, { uri: "crm://object", fetchConfig: { data: { apiKey: secret } } });
    await insertStoredResourceRow(crm, { uri: "crm://odd", mimeType: "text/html; charset=x", fetchConfig: { text: "<p>odd</p>" } });
    forgetSnapshot(serverId);
    const admin = await bothEras(serverId, t.admin.token);
    expect(admin.uris).toEqual(expect.arrayContaining(["crm://remote", "crm://object", "crm://odd"]));
    expect(admin.uris.filter((u) => u === "not a uri" || u.endsWith("/evil"))).toEqual([]);
    expect(await admin.read("crm://remote")).toEqual({ ok: true, contents: [{ uri: "crm://remote", mimeType: "text/plain", text: STORED_RESOURCE_PLACEHOLDER }] });
    expect(await admin.read("crm://odd")).toEqual({ ok: true, contents: [{ uri: "crm://odd", mimeType: "text/plain", text: "<p>odd</p>" }] });
    for (const needle of [secret, HEADER_SECRET, "internal.example.com", "invalid row", "reserved row"]) expect(admin.everything).not.toContain(needle);
  });
});

describe("seed 004 over HTTP: Duplicate URIs", () => {
  it("two visible claimants of one URI (after normalization): neither is listed, reading answers not found; a hidden claimant does not count", async () => {
    const { t, billing, serverId } = await crmAndBillingScenario();
    await addStoredResource(t, billing, { uri: "CRM://schema", fetchConfig: { text: "Billing's schema" } });
    const admin = await bothEras(serverId, t.admin.token);
    expect(admin.uris.filter((u) => u.toLowerCase() === "crm://schema")).toEqual([]);
    expect(await admin.read("crm://schema")).toEqual({ ok: false });
    const member = await bothEras(serverId, t.member.token);
    expect(member.uris).toContain("CRM://schema");
    expect(await member.read("crm://schema")).toEqual({ ok: true, contents: [{ uri: "CRM://schema", mimeType: "text/plain", text: "Billing's schema" }] });
  });
});

describe("seed 004 over HTTP: resources are only served on per-server endpoints", () => {
  it("/mcp and /mcp/demo declare no resources capability", async () => {
    const { t } = await crmAndBillingScenario();
    for (const [path, token] of [["/mcp", t.admin.token], ["/mcp/demo", null]] as const) {
      const v1 = await connectV1(`${app.origin}${path}`, token);
      const v2 = await connectV2(`${app.origin}${path}`, token);
      expect(v1.client.getServerCapabilities()?.resources).toBeUndefined();
      expect(v2.client.getServerCapabilities()?.resources).toBeUndefined();
      await Promise.all([v1.close(), v2.close()]);
    }
  });
});
