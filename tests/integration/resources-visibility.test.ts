import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { logger } from "@/lib/log";
import { STORED_RESOURCE_PLACEHOLDER } from "@/lib/resources/stored-resource-content";
import { createTenant, INSTANCE_KEY } from "@/tests/helpers/factories";
import {
  addStoredResource,
  catalogFor,
  createConnector,
  createServer,
  crmAndBillingScenario,
  everythingServed,
  forgetSnapshot,
  HEADER_SECRET,
  insertStoredResourceRow,
  putGraph,
  setWorkspace,
  uriOf,
} from "@/tests/helpers/resource-scenario";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("MCP resources: What is published", () => {
  it("an admin gets the composed instructions, each connector's instructions and the stored resources, under the seed's URIs", async () => {
    const { t, crm, billing, serverId } = await crmAndBillingScenario();
    const admin = (await catalogFor(t.admin.token, serverId))!;
    expect(admin.uris).toEqual([uriOf.instructions(serverId), uriOf.connector(serverId, crm), uriOf.connector(serverId, billing), "crm://schema", "billing://rates"]);
    expect(admin.instructions).toBe(
      "Server notes.\n\n## CRM\n\nCRM setup notes.\n\n## Billing\n\nBilling notes.\n\n## Skill: CRM skill\n\nSearch the CRM by email.\n\n## Skill: General\n\nAnswer briefly.",
    );
    expect(admin.catalog.read(uriOf.instructions(serverId))).toEqual({
      contents: [{ uri: uriOf.instructions(serverId), mimeType: "text/markdown", text: admin.instructions }],
    });
    expect(admin.catalog.read(uriOf.connector(serverId, crm))?.contents[0]).toEqual({ uri: uriOf.connector(serverId, crm), mimeType: "text/markdown", text: "CRM setup notes." });
    expect(admin.catalog.read("crm://schema")?.contents[0]).toEqual({ uri: "crm://schema", mimeType: "text/markdown", text: "# CRM schema" });
    expect(admin.catalog.list().find((r) => r.uri === "crm://schema")).toEqual({ uri: "crm://schema", name: "CRM schema", description: "Tables", mimeType: "text/markdown" });
  });

  it("The composed text is not empty: otherwise the instructions resource is not published", async () => {
    const t = await createTenant();
    const quiet = await createConnector(t, "Quiet", { tools: [{ name: "ping" }] });
    const serverId = await createServer(t, [quiet], null);
    const admin = (await catalogFor(t.admin.token, serverId))!;
    expect(admin.instructions).toBe("");
    expect(admin.uris).toEqual([]);
    expect(admin.catalog.read(uriOf.instructions(serverId))).toBeNull();
    expect(admin.catalog.read(uriOf.connector(serverId, quiet))).toBeNull();
  });

  it("anythingmcp://server/<serverId>/knowledge-graph: only when the graph is enabled for the workspace", async () => {
    const { t, crm, serverId } = await crmAndBillingScenario();
    const before = (await catalogFor(t.admin.token, serverId))!;
    expect(before.uris).not.toContain(uriOf.graph(serverId));
    expect(before.catalog.read(uriOf.graph(serverId))).toBeNull();

    await setWorkspace(t, { knowledgeGraphEnabled: true });
    await putGraph(t, crm, { entities: [{ key: "customer", label: "Client", description: "Someone who pays." }], relations: [] });
    const after = (await catalogFor(t.admin.token, serverId))!;
    expect(after.uris).toContain(uriOf.graph(serverId));
    const graph = after.catalog.read(uriOf.graph(serverId))!.contents[0];
    expect(graph.mimeType).toBe("text/markdown");
    // Manual entries win over derived ones; references cross connectors.
    expect(graph.text).toContain("### Client (`customer`)\n\n- Connector: CRM\n- Description: Someone who pays.");
    expect(graph.text).toContain("`get_customer` (CRM) returns it");
    expect(graph.text).toContain("- Invoice (`invoice`) → Client (`customer`) — `references`: `list_invoices` takes `customer_id`");
  });
});

describe("MCP resources: Who sees what", () => {
  it("A caller whose role grants no tool of connector X sees neither X's section, nor skills scoped to X, nor X's resources", async () => {
    const { t, crm, billing, serverId } = await crmAndBillingScenario({ knowledgeGraphEnabled: true });
    const member = (await catalogFor(t.member.token, serverId))!;
    expect(member.view.connectors.map((c) => c.id)).toEqual([billing]);
    expect(member.instructions).toBe("Server notes.\n\n## Billing\n\nBilling notes.\n\n## Skill: General\n\nAnswer briefly.");
    expect(member.uris).toEqual([uriOf.instructions(serverId), uriOf.connector(serverId, billing), uriOf.graph(serverId), "billing://rates"]);
    expect(member.catalog.read(uriOf.instructions(serverId))?.contents[0].text).toBe(member.instructions);
    const graph = member.catalog.read(uriOf.graph(serverId))!.contents[0].text;
    expect(graph).not.toMatch(/CRM|get_customer|list_customers/);
    expect(everythingServed(member.catalog)).not.toMatch(/CRM setup notes|Search the CRM|# CRM schema/);
    expect(crm).toBeTruthy();
  });

  it("gets not found from resources/read of any of X's URIs, the same answer as for a URI that never existed", async () => {
    const { t, crm, serverId } = await crmAndBillingScenario();
    const member = (await catalogFor(t.member.token, serverId))!;
    const never = member.catalog.read(uriOf.connector(serverId, "never-existed"));
    expect(never).toBeNull();
    for (const uri of [uriOf.connector(serverId, crm), "crm://schema", "CRM://schema", "crm://never-existed"]) {
      expect(member.catalog.read(uri)).toEqual(never);
    }
    // The same URIs are there for the admin: the member's "not found" hides them.
    const admin = (await catalogFor(t.admin.token, serverId))!;
    expect(admin.catalog.read(uriOf.connector(serverId, crm))).not.toBeNull();
    expect(admin.catalog.read("crm://schema")).not.toBeNull();
  });

  it("A caller the roles do not restrict (an admin, a member with no MCP role without whitelists, the instance credential) sees every assigned connector", async () => {
    const { t, serverId } = await crmAndBillingScenario({ memberRole: false });
    const admin = (await catalogFor(t.admin.token, serverId))!;
    for (const token of [t.member.token, INSTANCE_KEY, t.owner.token]) {
      const other = (await catalogFor(token, serverId))!;
      expect(other.uris).toEqual(admin.uris);
      expect(other.instructions).toBe(admin.instructions);
    }
  });

  it("a member with no MCP role in a workspace that uses tool whitelists sees no connector (fails closed)", async () => {
    const { t, crm, billing, serverId } = await crmAndBillingScenario({ memberRole: false });
    await setWorkspace(t, { toolWhitelistsEnabled: true });
    const member = (await catalogFor(t.member.token, serverId))!;
    expect(member.uris).toEqual([uriOf.instructions(serverId)]);
    expect(member.instructions).toBe("Server notes.\n\n## Skill: General\n\nAnswer briefly.");
    for (const uri of [uriOf.connector(serverId, crm), uriOf.connector(serverId, billing), "crm://schema", "billing://rates"]) expect(member.catalog.read(uri)).toBeNull();
  });

  it("the instructions resource equals the initialize instructions for every caller", async () => {
    const { t, serverId } = await crmAndBillingScenario({ knowledgeGraphEnabled: true });
    for (const token of [t.admin.token, t.owner.token, t.member.token, INSTANCE_KEY]) {
      const { catalog, instructions } = (await catalogFor(token, serverId))!;
      expect(catalog.read(uriOf.instructions(serverId))?.contents[0].text).toBe(instructions);
    }
  });
});

describe("MCP resources: Everything is also scoped to the server's organization and fails closed", () => {
  it("A URI that names a connector of another server is not found", async () => {
    const { t, crm, billing, serverId } = await crmAndBillingScenario({ memberRole: false });
    const second = await createServer(t, [billing]);
    const admin = (await catalogFor(t.admin.token, second))!;
    expect(admin.uris).toEqual([uriOf.instructions(second), uriOf.connector(second, billing), "billing://rates"]);
    for (const uri of [uriOf.connector(second, crm), uriOf.connector(serverId, crm), uriOf.connector(serverId, billing), uriOf.instructions(serverId), "crm://schema"]) {
      expect(admin.catalog.read(uri)).toBeNull();
    }
  });

  it("A URI that names a connector of another organization is not found, and the other organization's callers get no server at all", async () => {
    const { t, serverId } = await crmAndBillingScenario();
    const other = await createTenant();
    const foreign = await createConnector(other, "Foreign", { instructions: "Foreign notes.", tools: [{ name: "get_thing" }] });
    await addStoredResource(other, foreign, { uri: "foreign://doc", fetchConfig: { text: "foreign text" } });
    await createServer(other, [foreign]);
    const admin = (await catalogFor(t.admin.token, serverId))!;
    expect(admin.catalog.read(uriOf.connector(serverId, foreign))).toBeNull();
    expect(admin.catalog.read("foreign://doc")).toBeNull();
    expect(await catalogFor(other.owner.token, serverId)).toBeNull();
  });

  it("The organization and the server assignment are re-checked in the queries: an assignment row smuggled in by SQL serves nothing", async () => {
    const t = await createTenant();
    const own = await createConnector(t, "Own", { tools: [{ name: "ping" }] });
    const serverId = await createServer(t, [own]);
    const other = await createTenant();
    const foreign = await createConnector(other, "Foreign", { instructions: "Foreign notes.", tools: [{ name: "get_thing" }] });
    await addStoredResource(other, foreign, { uri: "foreign://doc", fetchConfig: { text: "foreign text" } });
    await db().$executeRaw`INSERT INTO mcp_server_connectors (org_id, server_id, connector_id, position) VALUES (${t.org.id}, ${serverId}, ${foreign}, 9)`;
    forgetSnapshot(serverId);
    const admin = (await catalogFor(t.admin.token, serverId))!;
    expect(admin.view.connectors.map((c) => c.id)).toEqual([own]);
    expect(admin.catalog.read(uriOf.connector(serverId, foreign))).toBeNull();
    expect(admin.catalog.read("foreign://doc")).toBeNull();
    expect(everythingServed(admin.catalog)).not.toContain("Foreign");
  });
});

describe("MCP resources: Stored resources (only static text is ever served)", () => {
  it("fetchConfig.text, else fetchConfig.content; a url or a data object is a fixed placeholder (text/plain); no secret is ever served", async () => {
    const t = await createTenant();
    const c = await createConnector(t, "Docs", { tools: [{ name: "ping" }], headers: { Authorization: `Bearer ${HEADER_SECRET}` } });
    const secret = "sk_live_fake_secret_42";
    await addStoredResource(t, c, { uri: "docs://text", mimeType: "text/markdown", fetchConfig: { text: "# Text", content: "not this" } });
    await addStoredResource(t, c, { uri: "docs://content", fetchConfig: { content: "Content" } });
    await addStoredResource(t, c, { uri: "docs://url", mimeType: "application/json", fetchConfig: { url: `https://internal.example.com/x?token=${secret}` } });
    await addStoredResource(t, c, { uri: "docs://object", mimeType: "text/markdown", fetchConfig: { data: { apiKey: secret, nested: { password: secret } } } });
    await addStoredResource(t, c, { uri: "docs://text-object", fetchConfig: { text: { value: secret } } });
    const { catalog } = (await catalogFor(t.admin.token, await createServer(t, [c], null)))!;
    const read = (uri: string) => catalog.read(uri)?.contents[0];
    expect(read("docs://text")).toEqual({ uri: "docs://text", mimeType: "text/markdown", text: "# Text" });
    expect(read("docs://content")).toEqual({ uri: "docs://content", mimeType: "text/plain", text: "Content" });
    for (const uri of ["docs://url", "docs://object", "docs://text-object"]) {
      expect(read(uri)).toEqual({ uri, mimeType: "text/plain", text: STORED_RESOURCE_PLACEHOLDER });
      expect(catalog.list().find((r) => r.uri === uri)?.mimeType).toBe("text/plain");
    }
    const served = everythingServed(catalog);
    expect(served).not.toContain(secret);
    expect(served).not.toContain(HEADER_SECRET);
    expect(served).not.toContain("internal.example.com");
  });

  it("rows put into mcp_resources by SQL: an invalid URI or the anythingmcp: scheme is skipped; an odd mimeType is served as text/plain", async () => {
    const t = await createTenant();
    const c = await createConnector(t, "Docs", { tools: [{ name: "ping" }] });
    const serverId = await createServer(t, [c], null);
    await insertStoredResourceRow(c, { uri: "not a uri", fetchConfig: { text: "invalid row" } });
    await insertStoredResourceRow(c, { uri: "/relative", fetchConfig: { text: "relative row" } });
    await insertStoredResourceRow(c, { uri: uriOf.instructions(serverId), mimeType: "text/markdown", fetchConfig: { text: "hijacked instructions" } });
    await insertStoredResourceRow(c, { uri: `ANYTHINGMCP://server/${serverId}/knowledge-graph`, fetchConfig: { text: "hijacked graph" } });
    await insertStoredResourceRow(c, { uri: "docs://page", mimeType: "text/html; charset=x", fetchConfig: { text: "<p>page</p>" } });
    await insertStoredResourceRow(c, { uri: "docs://nomime", fetchConfig: { text: "plain" } });
    forgetSnapshot(serverId);
    const { catalog, uris } = (await catalogFor(t.admin.token, serverId))!;
    // Rows written within one millisecond share created_at (Prisma's millisecond timestamps), so
    // their order is the random id's: what is served is asserted, not in which order.
    expect([...uris].sort()).toEqual(["docs://nomime", "docs://page"]);
    expect(catalog.read("docs://page")?.contents[0]).toEqual({ uri: "docs://page", mimeType: "text/plain", text: "<p>page</p>" });
    expect(catalog.read("docs://nomime")?.contents[0].mimeType).toBe("text/plain");
    for (const uri of ["not a uri", "/relative", uriOf.instructions(serverId), uriOf.graph(serverId)]) expect(catalog.read(uri)).toBeNull();
    expect(everythingServed(catalog)).not.toMatch(/hijacked|invalid row|relative row/);
  });
});

describe("MCP resources: Duplicate URIs", () => {
  it("CRM://schema and crm://schema: neither is published, reading it answers not found, and a warning naming the URI is logged", async () => {
    const { t, crm, billing, serverId } = await crmAndBillingScenario();
    await addStoredResource(t, billing, { uri: "CRM://schema", fetchConfig: { text: "Billing's impostor schema" } });
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => undefined);
    const admin = (await catalogFor(t.admin.token, serverId))!;
    expect(admin.uris).toEqual([uriOf.instructions(serverId), uriOf.connector(serverId, crm), uriOf.connector(serverId, billing), "billing://rates"]);
    for (const uri of ["crm://schema", "CRM://schema", "Crm://schema"]) expect(admin.catalog.read(uri)).toBeNull();
    expect(warn).toHaveBeenCalledWith(expect.objectContaining({ uri: "crm://schema", serverId }), expect.stringContaining("crm://schema"));
  });

  it("Duplicates are judged among what the caller can see: if one claimant belongs to a connector the role denies, the other is served", async () => {
    const { t, billing, serverId } = await crmAndBillingScenario();
    await addStoredResource(t, billing, { uri: "CRM://schema", fetchConfig: { text: "Billing's schema" } });
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => undefined);
    const member = (await catalogFor(t.member.token, serverId))!;
    expect(member.uris).toContain("CRM://schema");
    expect(member.catalog.read("crm://schema")?.contents[0]).toEqual({ uri: "CRM://schema", mimeType: "text/plain", text: "Billing's schema" });
    expect(warn).not.toHaveBeenCalled();
  });

  it("rows equal only after RFC 3986 normalization collide too, even within one connector", async () => {
    const t = await createTenant();
    const c = await createConnector(t, "Docs", { tools: [{ name: "ping" }] });
    const serverId = await createServer(t, [c], null);
    await insertStoredResourceRow(c, { uri: "https://Docs.Example.com", fetchConfig: { text: "one" } });
    await insertStoredResourceRow(c, { uri: "https://docs.example.com:443/", fetchConfig: { text: "two" } });
    await insertStoredResourceRow(c, { uri: "docs://kept", fetchConfig: { text: "kept" } });
    forgetSnapshot(serverId);
    vi.spyOn(logger, "warn").mockImplementation(() => undefined);
    const { catalog, uris } = (await catalogFor(t.admin.token, serverId))!;
    expect(uris).toEqual(["docs://kept"]);
    expect(catalog.read("https://docs.example.com/")).toBeNull();
  });
});
