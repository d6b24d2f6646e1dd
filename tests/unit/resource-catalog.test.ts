import { afterEach, describe, expect, it, vi } from "vitest";
import { logger } from "@/lib/log";
import { composeInstructions } from "@/lib/mcp/visibility/filter-view";
import type { CallerView } from "@/lib/mcp/visibility/snapshot-types";
import { buildResourceCatalog } from "@/lib/resources/resource-catalog";
import { STORED_RESOURCE_PLACEHOLDER } from "@/lib/resources/stored-resource-content";
import { connector, roleView, snapshot, stored, unrestrictedView } from "@/tests/helpers/snapshot-fixtures";

const catalogOf = (view: CallerView) => buildResourceCatalog(view, composeInstructions(view));
const uris = (view: CallerView) => catalogOf(view).list().map((r) => r.uri);
const textOf = (view: CallerView, uri: string) => catalogOf(view).read(uri)?.contents[0].text;

const INSTRUCTIONS = "anythingmcp://server/srv1/instructions";
const GRAPH = "anythingmcp://server/srv1/knowledge-graph";
const connectorInstructions = (id: string) => `anythingmcp://server/srv1/connector/${id}/instructions`;

afterEach(() => {
  vi.restoreAllMocks();
});

describe("What is published", () => {
  const crm = () =>
    connector("crm", { name: "CRM", instructions: "Look customers up by email.", tools: ["get_customer"], storedResources: [stored("crm://schema", { name: "CRM schema", description: "Tables", mimeType: "text/markdown" })] });
  const docs = () => connector("docs", { name: "Docs", instructions: "   ", tools: ["search"] });

  it("anythingmcp://server/<serverId>/instructions: the composed instructions, identical to the initialize instructions", () => {
    const view = unrestrictedView(snapshot([crm(), docs()], { instructions: "Be brief.", skills: [{ id: "s1", name: "Tone", content: "Be kind.", connectorId: null }] }));
    const instructions = composeInstructions(view);
    const read = buildResourceCatalog(view, instructions).read(INSTRUCTIONS);
    expect(read).toEqual({ contents: [{ uri: INSTRUCTIONS, mimeType: "text/markdown", text: instructions }] });
    expect(instructions).toBe("Be brief.\n\n## CRM\n\nLook customers up by email.\n\n## Skill: Tone\n\nBe kind.");
  });

  it("the instructions resource is published only when the composed text is not empty", () => {
    const view = unrestrictedView(snapshot([docs()]));
    expect(composeInstructions(view)).toBe("");
    expect(uris(view)).not.toContain(INSTRUCTIONS);
    expect(catalogOf(view).read(INSTRUCTIONS)).toBeNull();
  });

  it("anythingmcp://server/<serverId>/connector/<connectorId>/instructions: one per connector you can use that has instructions", () => {
    const view = unrestrictedView(snapshot([crm(), docs()]));
    expect(uris(view)).toEqual([INSTRUCTIONS, connectorInstructions("crm"), "crm://schema"]);
    expect(catalogOf(view).read(connectorInstructions("crm"))).toEqual({
      contents: [{ uri: connectorInstructions("crm"), mimeType: "text/markdown", text: "Look customers up by email." }],
    });
    expect(catalogOf(view).read(connectorInstructions("docs"))).toBeNull();
  });

  it("anythingmcp://server/<serverId>/knowledge-graph: only when the graph is enabled for the workspace", () => {
    expect(uris(unrestrictedView(snapshot([crm()])))).not.toContain(GRAPH);
    expect(catalogOf(unrestrictedView(snapshot([crm()]))).read(GRAPH)).toBeNull();
    const view = unrestrictedView(snapshot([crm()], { knowledgeGraphEnabled: true }));
    expect(uris(view)).toEqual([INSTRUCTIONS, connectorInstructions("crm"), GRAPH, "crm://schema"]);
    const read = catalogOf(view).read(GRAPH)!;
    expect(read.contents[0]).toMatchObject({ uri: GRAPH, mimeType: "text/markdown" });
    expect(read.contents[0].text).toContain("### Customer (`customer`)");
    expect(read.contents[0].text).toContain("`crm_get_customer` (CRM) returns it");
  });

  it("The row's own URI: a stored resource of a connector you can use", () => {
    const view = unrestrictedView(snapshot([crm()]));
    expect(catalogOf(view).read("crm://schema")).toEqual({ contents: [{ uri: "crm://schema", mimeType: "text/markdown", text: "text of crm://schema" }] });
  });

  it("The anythingmcp: scheme is reserved for the resources above. All of them are served as text/markdown.", () => {
    const view = unrestrictedView(snapshot([crm(), docs()], { knowledgeGraphEnabled: true }));
    const listed = catalogOf(view).list().filter((r) => r.uri.startsWith("anythingmcp:"));
    expect(listed.map((r) => r.mimeType)).toEqual(["text/markdown", "text/markdown", "text/markdown"]);
    for (const r of listed) expect(catalogOf(view).read(r.uri)?.contents[0].mimeType).toBe("text/markdown");
  });

  it("every resource carries a name, a description where there is one, and a mime type", () => {
    const c = crm();
    c.storedResources.push(stored("crm://bare", { name: "Bare" }));
    const listed = catalogOf(unrestrictedView(snapshot([c], { knowledgeGraphEnabled: true }))).list();
    expect(listed.find((r) => r.uri === "crm://schema")).toEqual({ uri: "crm://schema", name: "CRM schema", description: "Tables", mimeType: "text/markdown" });
    expect(listed.find((r) => r.uri === "crm://bare")).toEqual({ uri: "crm://bare", name: "Bare", mimeType: "text/plain" });
    expect(listed.find((r) => r.uri === connectorInstructions("crm"))).toMatchObject({ name: "CRM instructions", description: expect.any(String) });
    for (const r of listed) expect(r.name.length).toBeGreaterThan(0);
  });
});

describe("Who sees what: a caller whose role grants no tool of connector X", () => {
  const x = () =>
    connector("x", { name: "Connector X", instructions: "X setup notes.", tools: ["get_secret_thing"], storedResources: [stored("x://notes", { fetchConfig: { text: "X stored" } })] });
  const y = () => connector("y", { name: "Y", instructions: "Y notes.", tools: ["get_order"], storedResources: [stored("y://notes")] });
  const snap = () =>
    snapshot([x(), y()], {
      knowledgeGraphEnabled: true,
      skills: [
        { id: "s1", name: "X skill", content: "Use X well.", connectorId: "x" },
        { id: "s2", name: "General", content: "Be brief.", connectorId: null },
      ],
    });
  const member = () => roleView(snap(), [["y", "get_order"]]);

  it("does not see X's section in the initialize instructions, nor skills scoped to X", () => {
    const text = composeInstructions(member());
    expect(text).toBe("## Y\n\nY notes.\n\n## Skill: General\n\nBe brief.");
    expect(textOf(member(), INSTRUCTIONS)).toBe(text);
  });

  it("does not see X's instructions resource or any stored resource of X in resources/list", () => {
    expect(uris(member())).toEqual([INSTRUCTIONS, connectorInstructions("y"), GRAPH, "y://notes"]);
    expect(uris(unrestrictedView(snap()))).toEqual([INSTRUCTIONS, connectorInstructions("x"), connectorInstructions("y"), GRAPH, "x://notes", "y://notes"]);
  });

  it("gets not found from resources/read of any of X's URIs, the same answer as for a URI that never existed", () => {
    const catalog = catalogOf(member());
    for (const uri of [connectorInstructions("x"), "x://notes", "X://notes", connectorInstructions("never"), "never://existed"]) {
      expect(catalog.read(uri)).toBeNull();
    }
    expect(textOf(member(), GRAPH)).not.toMatch(/secret|Connector X/i);
  });

  it("A caller the roles do not restrict sees every assigned connector", () => {
    expect(textOf(unrestrictedView(snap()), "x://notes")).toBe("X stored");
  });

  it("A URI that names a connector of another server is not found", () => {
    const otherServer = catalogOf(unrestrictedView(snapshot([x()], { serverId: "srv2" })));
    expect(otherServer.read(connectorInstructions("x"))).toBeNull();
    expect(otherServer.read(INSTRUCTIONS)).toBeNull();
    expect(otherServer.read("anythingmcp://server/srv2/connector/x/instructions")).not.toBeNull();
  });
});

describe("Stored resources: only static text is ever served", () => {
  const servedAs = (row: ReturnType<typeof stored>) => {
    const view = unrestrictedView(snapshot([connector("c", { storedResources: [row] })]));
    const catalog = catalogOf(view);
    return { listed: catalog.list().find((r) => r.uri === row.uri), read: catalog.read(row.uri)?.contents[0] };
  };

  it("If fetchConfig.text is a string, that string is the content. Otherwise, if fetchConfig.content is a string, that string is.", () => {
    expect(servedAs(stored("a://1", { fetchConfig: { text: "T", content: "C" }, mimeType: "text/markdown" })).read).toEqual({ uri: "a://1", mimeType: "text/markdown", text: "T" });
    expect(servedAs(stored("a://2", { fetchConfig: { text: 42, content: "C" } })).read?.text).toBe("C");
    expect(servedAs(stored("a://3", { fetchConfig: { content: "" } })).read?.text).toBe("");
  });

  it.each([
    ["a url to fetch", { url: "https://internal.example.com/secret-sk_live_123" }],
    ["a data object", { data: { apiKey: "sk_live_123", nested: { token: "sk_live_123" } } }],
    ["text that is an object", { text: { value: "sk_live_123" } }],
    ["an array", ["sk_live_123"]],
    ["no fetchConfig", null],
    ["a bare string", "sk_live_123"],
  ])("Anything else, including %s, is served as a fixed placeholder text (text/plain)", (_label, fetchConfig) => {
    const { listed, read } = servedAs(stored("a://x", { fetchConfig, mimeType: "application/json" }));
    expect(listed?.mimeType).toBe("text/plain");
    expect(read).toEqual({ uri: "a://x", mimeType: "text/plain", text: STORED_RESOURCE_PLACEHOLDER });
    expect(JSON.stringify(read)).not.toContain("sk_live_123");
  });

  it.each([
    ["not a valid URI", "not a uri"],
    ["a relative reference", "/docs"],
    ["the reserved anythingmcp: scheme", "anythingmcp://server/srv1/instructions"],
    ["the reserved scheme in capitals", "AnythingMCP://server/srv1/knowledge-graph"],
  ])("A row whose URI is %s is skipped", (_label, uri) => {
    const view = unrestrictedView(snapshot([connector("c", { storedResources: [stored(uri, { fetchConfig: { text: "row text" } })] })]));
    const catalog = catalogOf(view);
    expect(catalog.list().map((r) => r.uri)).not.toContain(uri);
    expect(catalog.read(uri)?.contents[0].text).not.toBe("row text");
  });

  it.each([
    ["text/html; charset=x", "text/plain"],
    ["text", "text/plain"],
    ["*/*", "text/plain"],
    [null, "text/plain"],
    ["Text/Markdown", "text/markdown"],
    ["application/json", "application/json"],
  ])("A mimeType that is not a plain type/subtype is served as text/plain (%j → %s)", (mimeType, served) => {
    const { listed, read } = servedAs(stored("a://m", { mimeType, fetchConfig: { text: "x" } }));
    expect(listed?.mimeType).toBe(served);
    expect(read?.mimeType).toBe(served);
  });
});

describe("Duplicate URIs", () => {
  const a = () => connector("a", { tools: ["ping"], storedResources: [stored("CRM://schema", { fetchConfig: { text: "A's schema" } }), stored("a://own")] });
  const b = () => connector("b", { tools: ["ping"], storedResources: [stored("crm://schema", { fetchConfig: { text: "B's schema" } })] });

  it("When two resources the caller can see would be published under the same URI (CRM://schema and crm://schema), neither is published", () => {
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => undefined);
    const catalog = catalogOf(unrestrictedView(snapshot([a(), b()])));
    expect(catalog.list().map((r) => r.uri)).toEqual(["a://own"]);
    for (const uri of ["CRM://schema", "crm://schema", "cRm://schema"]) expect(catalog.read(uri)).toBeNull();
    expect(catalog.read("a://own")).not.toBeNull();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toMatchObject({ uri: "crm://schema", claimants: ["CRM://schema", "crm://schema"] });
    expect(String(warn.mock.calls[0][1])).toContain("crm://schema");
  });

  it("two rows of one connector, and URIs equal only after RFC 3986 normalization, collide too", () => {
    vi.spyOn(logger, "warn").mockImplementation(() => undefined);
    const c = connector("c", {
      storedResources: [stored("https://Docs.example.com"), stored("https://docs.example.com:443/"), stored("doc://x/a/../%7eb"), stored("DOC://x/~b")],
    });
    expect(catalogOf(unrestrictedView(snapshot([c]))).list()).toEqual([]);
  });

  it("Duplicates are judged among what the caller can see: if one claimant belongs to a connector the role denies, the other is served", () => {
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => undefined);
    const view = roleView(snapshot([a(), b()]), [["b", "ping"]]);
    expect(uris(view)).toEqual(["crm://schema"]);
    expect(textOf(view, "CRM://schema")).toBe("B's schema");
    expect(warn).not.toHaveBeenCalled();
  });
});

describe("resources/read normalizes the requested URI", () => {
  it("reads a resource under any spelling equal after normalization, answering with the published URI", () => {
    const view = unrestrictedView(snapshot([connector("c", { instructions: "Hi.", storedResources: [stored("crm://schema/tables")] })]));
    const catalog = catalogOf(view);
    expect(catalog.read("CRM://SCHEMA/./tables")?.contents[0].uri).toBe("crm://schema/tables");
    expect(catalog.read("ANYTHINGMCP://Server/srv1/instructions")?.contents[0].uri).toBe(INSTRUCTIONS);
    expect(catalog.read("crm://schema/Tables")).toBeNull();
  });
});
