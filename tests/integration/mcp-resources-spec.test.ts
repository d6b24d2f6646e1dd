import http from "node:http";
import type net from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { logger } from "@/lib/log";
import { STORED_RESOURCE_PLACEHOLDER } from "@/lib/resources/stored-resource-content";
import { createTenant, INSTANCE_KEY } from "@/tests/helpers/factories";
import { connectV1, connectV2, parseBody, postRaw } from "@/tests/helpers/mcp-clients";
import {
  addSkill,
  addStoredResource,
  createConnector,
  createServer,
  crmAndBillingScenario,
  forgetSnapshot,
  giveMemberRole,
  setWorkspace,
  uriOf,
} from "@/tests/helpers/resource-scenario";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";

/**
 * Seed 004 (MCP resources on /mcp/<serverId>, we are the SERVER): the sentences that the other
 * resource tests did not yet show on the wire, each over real HTTP in both eras — a v1 SDK
 * client (2025-11-25, initialize) and a v2 client pinned to 2026-07-28 — and, where a code is
 * at stake, with raw JSON-RPC requests so the answer is read as it was sent.
 */

let app: RouteServer;
beforeAll(async () => {
  app = await startRouteServer();
});
afterAll(() => app.close());
afterEach(() => {
  vi.restoreAllMocks();
});

const url = (path: string) => `${app.origin}${path}`;
const auth = (token: string | null): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});

/** One raw 2025-era request (no session: the default stateless mode). */
async function legacy(path: string, token: string | null, method: string, params: Record<string, unknown> = {}) {
  const res = await postRaw(url(path), { jsonrpc: "2.0", id: 7, method, params }, { ...auth(token), "mcp-protocol-version": "2025-11-25" });
  return res.body;
}

/**
 * One raw 2026-07-28 request: the revision and the client's capabilities ride in `_meta`; the
 * method (and the URI of a read) are mirrored in the Mcp-Method / Mcp-Name headers (SEP-2243).
 */
async function modern(path: string, token: string | null, method: string, params: Record<string, unknown> = {}) {
  const _meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  const res = await postRaw(url(path), { jsonrpc: "2.0", id: 8, method, params: { ...params, _meta } }, {
    ...auth(token),
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
    ...(typeof params.uri === "string" ? { "mcp-name": params.uri } : {}),
  });
  return res.body;
}

/** Every JSON-RPC message of the answer to one POST (a batch's answers come as several). */
async function rawAll(target: string, body: unknown, headers: Record<string, string>): Promise<any[]> {
  const res = await fetch(target, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body: JSON.stringify(body) });
  return [parseBody(await res.text(), res.headers.get("content-type"), true)].flat();
}

/** What both eras' clients see of a server for `token`: initialize instructions and the resource list. */
async function bothClients(serverId: string, token: string) {
  const [v1, v2] = [await connectV1(url(`/mcp/${serverId}`), token), await connectV2(url(`/mcp/${serverId}`), token)];
  try {
    const lists = [await v1.client.listResources(), await v2.client.listResources()];
    expect(lists[1].resources).toEqual(lists[0].resources);
    expect(v2.client.getInstructions()).toBe(v1.client.getInstructions());
    return { instructions: v1.client.getInstructions(), uris: lists[0].resources.map((r) => r.uri), v1, v2 };
  } finally {
    await Promise.all([v1.close(), v2.close()]);
  }
}

describe("Resources are only served on per-server endpoints", () => {
  it("The shared /mcp endpoint and the public /mcp/demo server publish none: resources/list, resources/read and resources/templates/list are not methods there, in both eras", async () => {
    const { t, serverId } = await crmAndBillingScenario();
    const served = uriOf.instructions(serverId);
    // The same key is served resources on the per-server endpoint.
    expect((await legacy(`/mcp/${serverId}`, t.admin.token, "resources/read", { uri: served })).result.contents[0].uri).toBe(served);
    expect((await modern(`/mcp/${serverId}`, t.admin.token, "resources/read", { uri: served })).result.contents[0].uri).toBe(served);
    for (const [path, token] of [["/mcp", t.admin.token], ["/mcp/demo", null]] as const) {
      for (const send of [legacy, modern]) {
        for (const [method, params] of [["resources/list", {}], ["resources/read", { uri: served }], ["resources/read", { uri: "crm://schema" }], ["resources/templates/list", {}]] as const) {
          const body = await send(path, token, method, params);
          expect(body.result, `${send.name} ${path} ${method}`).toBeUndefined();
          expect(body.error.code, `${send.name} ${path} ${method}`).toBe(-32601);
        }
      }
    }
  });
});

describe("What is published: anythingmcp://server/<serverId>/instructions", () => {
  it("Identical to the instructions field of the initialize response: the same bytes in both eras, non-ASCII, tabs, CRLF and inner spacing included", async () => {
    const t = await createTenant();
    const notes = "Réponds en français — naïve café 🚀\r\n\tIndented line  with two spaces\r\nZero‑width: \u200b end";
    const c = await createConnector(t, "Ünïcode", { instructions: "Connector notes ✓\n\n  - item", tools: [{ name: "ping" }] });
    const serverId = await createServer(t, [c], notes);
    await addSkill(t, "Emoji skill", "Use 👍 sparingly.");
    for (const token of [t.admin.token, INSTANCE_KEY]) {
      const init = await legacy(`/mcp/${serverId}`, token, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } });
      const discovered = await modern(`/mcp/${serverId}`, token, "server/discover");
      const read2025 = await legacy(`/mcp/${serverId}`, token, "resources/read", { uri: uriOf.instructions(serverId) });
      const read2026 = await modern(`/mcp/${serverId}`, token, "resources/read", { uri: uriOf.instructions(serverId) });
      const instructions: string = init.result.instructions;
      expect(instructions).toContain(notes);
      expect(discovered.result.instructions).toBe(instructions);
      for (const read of [read2025, read2026]) {
        expect(read.result.contents).toEqual([{ uri: uriOf.instructions(serverId), mimeType: "text/markdown", text: instructions }]);
        expect(Buffer.from(read.result.contents[0].text, "utf8").equals(Buffer.from(instructions, "utf8"))).toBe(true);
      }
    }
  });

  it("The composed text is not empty: with no server, connector or skill instructions there is no initialize instructions field and no instructions resource; reading it is not found", async () => {
    const t = await createTenant();
    const quiet = await createConnector(t, "Quiet", { tools: [{ name: "ping" }] });
    const serverId = await createServer(t, [quiet], null);
    // Whitespace-only server instructions (put in by SQL) compose to nothing as well.
    await db().mcpServer.update({ where: { id: serverId }, data: { instructions: "  \n\t " } });
    forgetSnapshot(serverId);
    const seen = await bothClients(serverId, t.admin.token);
    expect(seen.instructions).toBeUndefined();
    expect(seen.uris).toEqual([]);
    const init = await legacy(`/mcp/${serverId}`, t.admin.token, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } });
    expect(init.result).not.toHaveProperty("instructions");
    expect((await legacy(`/mcp/${serverId}`, t.admin.token, "resources/read", { uri: uriOf.instructions(serverId) })).error).toMatchObject({ code: -32002, data: { uri: uriOf.instructions(serverId) } });
    expect((await modern(`/mcp/${serverId}`, t.admin.token, "resources/read", { uri: uriOf.instructions(serverId) })).error).toMatchObject({ code: -32602, data: { uri: uriOf.instructions(serverId) } });

    // One applied skill is enough to make it not empty: then both appear, with the same text.
    await addSkill(t, "Tone", "Be brief.");
    const after = await bothClients(serverId, t.admin.token);
    expect(after.instructions).toBe("## Skill: Tone\n\nBe brief.");
    expect(after.uris).toEqual([uriOf.instructions(serverId)]);
  });
});

describe("What is published: anythingmcp://server/<serverId>/connector/<connectorId>/instructions", () => {
  it("One per connector you can use that has instructions: none for a connector without instructions, none for one the caller cannot use", async () => {
    const t = await createTenant();
    const withNotes = await createConnector(t, "With", { instructions: "With notes.", tools: [{ name: "a_tool" }] });
    const without = await createConnector(t, "Without", { tools: [{ name: "b_tool" }] });
    const denied = await createConnector(t, "Denied", { instructions: "Denied notes.", tools: [{ name: "c_tool" }] });
    const serverId = await createServer(t, [withNotes, without, denied], null);
    await giveMemberRole(t, [{ connectorId: withNotes, tool: "a_tool" }, { connectorId: without, tool: "b_tool" }]);
    const admin = await bothClients(serverId, t.admin.token);
    expect(admin.uris).toEqual([uriOf.instructions(serverId), uriOf.connector(serverId, withNotes), uriOf.connector(serverId, denied)]);
    const member = await bothClients(serverId, t.member.token);
    expect(member.uris).toEqual([uriOf.instructions(serverId), uriOf.connector(serverId, withNotes)]);
    const read = await legacy(`/mcp/${serverId}`, t.member.token, "resources/read", { uri: uriOf.connector(serverId, withNotes) });
    expect(read.result.contents).toEqual([{ uri: uriOf.connector(serverId, withNotes), mimeType: "text/markdown", text: "With notes." }]);
  });
});

describe("Who sees what", () => {
  it("A connector contributes resources only when at least one of its tools survives both filters for this caller: a connector with no tool contributes nothing, even to an admin", async () => {
    const t = await createTenant();
    const used = await createConnector(t, "Used", { tools: [{ name: "ping" }] });
    const toolless = await createConnector(t, "Toolless", { instructions: "Toolless notes.", tools: [] });
    await addStoredResource(t, toolless, { uri: "toolless://doc", fetchConfig: { text: "toolless text" } });
    await addSkill(t, "Toolless skill", "Scoped to the toolless connector.", toolless);
    const serverId = await createServer(t, [used, toolless], "Server notes.");
    await setWorkspace(t, { knowledgeGraphEnabled: true });
    const admin = await bothClients(serverId, t.admin.token);
    expect(admin.instructions).toBe("Server notes.");
    expect(admin.uris).toEqual([uriOf.instructions(serverId), uriOf.graph(serverId)]);
    for (const uri of [uriOf.connector(serverId, toolless), "toolless://doc"]) {
      expect((await legacy(`/mcp/${serverId}`, t.admin.token, "resources/read", { uri })).error).toMatchObject({ code: -32002, data: { uri } });
    }
    const graph = await legacy(`/mcp/${serverId}`, t.admin.token, "resources/read", { uri: uriOf.graph(serverId) });
    expect(graph.result.contents[0].text).not.toContain("Toolless");
  });

  it("A role that grants one tool of connector X is enough: X's instructions resource and stored resources are served to that member", async () => {
    const { t, crm, serverId } = await crmAndBillingScenario({ memberRole: false });
    await giveMemberRole(t, [{ connectorId: crm, tool: "list_customers" }]);
    const member = await bothClients(serverId, t.member.token);
    expect(member.uris).toEqual([uriOf.instructions(serverId), uriOf.connector(serverId, crm), "crm://schema"]);
    expect(member.instructions).toContain("## CRM\n\nCRM setup notes.");
    expect(member.instructions).toContain("## Skill: CRM skill");
  });

  it("The endpoint never says \"forbidden\": reading a hidden connector's URIs answers exactly like a URI that never existed (code, message, data), in both eras", async () => {
    const { t, crm, serverId } = await crmAndBillingScenario();
    const hidden = [uriOf.connector(serverId, crm), "crm://schema"];
    const never = [uriOf.connector(serverId, "never-existed"), "crm://never-existed"];
    for (const send of [legacy, modern]) {
      const errors = [];
      for (const uri of [...hidden, ...never]) {
        const body = await send(`/mcp/${serverId}`, t.member.token, "resources/read", { uri });
        expect(body.result).toBeUndefined();
        errors.push({ ...body.error, message: body.error.message.replace(uri, "<uri>"), data: { ...body.error.data, uri: body.error.data.uri === uri ? "<uri>" : body.error.data.uri } });
      }
      expect(new Set(errors.map((e) => JSON.stringify(e))).size).toBe(1);
      expect(errors[0].code).toBe(send === legacy ? -32002 : -32602);
      expect(JSON.stringify(errors[0]).toLowerCase()).not.toMatch(/forbidden|denied|permission/);
    }
  });

  it("A URI that names a connector of another organization, or of another server, is not found", async () => {
    const { t, crm, billing, serverId } = await crmAndBillingScenario({ memberRole: false });
    const second = await createServer(t, [billing]);
    const other = await createTenant();
    const foreign = await createConnector(other, "Foreign", { instructions: "Foreign notes.", tools: [{ name: "get_thing" }] });
    await addStoredResource(other, foreign, { uri: "foreign://doc", fetchConfig: { text: "foreign text" } });
    const foreignServer = await createServer(other, [foreign]);
    const asked = [
      [second, uriOf.connector(second, crm)],
      [second, uriOf.connector(serverId, crm)],
      [second, uriOf.instructions(serverId)],
      [second, "crm://schema"],
      [serverId, uriOf.connector(serverId, foreign)],
      [serverId, uriOf.connector(foreignServer, foreign)],
      [serverId, "foreign://doc"],
    ];
    for (const [server, uri] of asked) {
      expect((await legacy(`/mcp/${server}`, t.admin.token, "resources/read", { uri })).error, uri).toEqual({ code: -32002, message: expect.any(String), data: { uri } });
      expect((await modern(`/mcp/${server}`, t.admin.token, "resources/read", { uri })).error, uri).toEqual({ code: -32602, message: expect.any(String), data: { uri } });
    }
    // The other organization's server does not exist for this key at all.
    expect((await postRaw(url(`/mcp/${foreignServer}`), { jsonrpc: "2.0", id: 1, method: "resources/list", params: {} }, auth(t.admin.token))).status).toBe(404);
  });
});

describe("gets not found from resources/read: -32002 { uri } on every 2025-era revision", () => {
  it.each(["2025-11-25", "2025-06-18", "2025-03-26"])("a %s connection gets -32002 { uri } for a hidden and a missing URI (a 2025-03-26 batch too)", async (revision) => {
    const { t, crm, serverId } = await crmAndBillingScenario();
    const uris = ["crm://schema", uriOf.connector(serverId, crm), "crm://never-existed"];
    const batch = uris.map((uri, i) => ({ jsonrpc: "2.0", id: i + 1, method: "resources/read", params: { uri } }));
    const headers = { ...auth(t.member.token), "mcp-protocol-version": revision };
    const answers = revision === "2025-03-26"
      ? await rawAll(url(`/mcp/${serverId}`), batch, headers)
      : await Promise.all(batch.map(async (m) => (await postRaw(url(`/mcp/${serverId}`), m, headers)).body));
    expect(answers.map((a: { id: number; error: unknown }) => [a.id, a.error])).toEqual(
      uris.map((uri, i) => [i + 1, { code: -32002, message: `Resource not found: ${uri}`, data: { uri } }]),
    );
  });
});

describe("Stored resources", () => {
  it("AnythingMCP never fetches a remote URL for a resource: a row whose fetchConfig.url points at a live server is served as the placeholder, and that server is never asked", async () => {
    const hits: string[] = [];
    const remote = http.createServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      res.writeHead(200, { "content-type": "text/plain" }).end("remote content sk_remote_secret");
    });
    await new Promise<void>((resolve) => remote.listen(0, "127.0.0.1", resolve));
    try {
      const remoteUrl = `http://127.0.0.1:${(remote.address() as net.AddressInfo).port}/doc?token=sk_in_url`;
      const t = await createTenant();
      const c = await createConnector(t, "Docs", { tools: [{ name: "ping" }] });
      await addStoredResource(t, c, { uri: "docs://remote", mimeType: "text/markdown", fetchConfig: { url: remoteUrl } });
      await addStoredResource(t, c, { uri: "docs://object", fetchConfig: { data: { apiKey: "sk_in_object" }, url: remoteUrl } });
      const serverId = await createServer(t, [c], null);
      for (const send of [legacy, modern]) {
        const list = await send(`/mcp/${serverId}`, t.admin.token, "resources/list");
        expect(list.result.resources.map((r: { uri: string; mimeType: string }) => [r.uri, r.mimeType])).toEqual([["docs://remote", "text/plain"], ["docs://object", "text/plain"]]);
        for (const uri of ["docs://remote", "docs://object"]) {
          const read = await send(`/mcp/${serverId}`, t.admin.token, "resources/read", { uri });
          expect(read.result.contents).toEqual([{ uri, mimeType: "text/plain", text: STORED_RESOURCE_PLACEHOLDER }]);
          expect(JSON.stringify(read)).not.toMatch(/sk_|127\.0\.0\.1/);
        }
      }
      expect(hits).toEqual([]);
    } finally {
      remote.closeAllConnections();
      await new Promise<void>((resolve) => remote.close(() => resolve()));
    }
  });
});

describe("Duplicate URIs", () => {
  it("neither is published, reading it answers not found, and a warning naming the URI is logged — on the wire, in both eras", async () => {
    const { t, billing, serverId } = await crmAndBillingScenario();
    await addStoredResource(t, billing, { uri: "CRM://schema", fetchConfig: { text: "Billing's schema" } });
    const warn = vi.spyOn(logger, "warn");
    for (const send of [legacy, modern]) {
      const list = await send(`/mcp/${serverId}`, t.admin.token, "resources/list");
      expect(list.result.resources.map((r: { uri: string }) => r.uri.toLowerCase())).not.toContain("crm://schema");
      for (const uri of ["crm://schema", "CRM://schema"]) {
        const read = await send(`/mcp/${serverId}`, t.admin.token, "resources/read", { uri });
        expect(read.error).toEqual({ code: send === legacy ? -32002 : -32602, message: expect.any(String), data: { uri } });
      }
    }
    expect(warn).toHaveBeenCalledWith(expect.objectContaining({ serverId, uri: "crm://schema" }), expect.stringContaining("crm://schema"));
  });
});
