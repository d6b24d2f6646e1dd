import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport as V1InMemory } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer as V1McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { Client as V2Client, ProtocolError as V2ClientProtocolError } from "@modelcontextprotocol/client";
import { InMemoryTransport as V2InMemory, McpServer as V2McpServer } from "@modelcontextprotocol/server";
import {
  host,
  type HostResources,
  HostResourceNotFoundError,
  HostResourcesError,
  HostResourcesInvalidParamsError,
  HostResourcesRateLimitedError,
  HostResourcesUnavailableError,
  HostResourceTooLargeError,
  isHostResourcesEra,
  isTextContents,
  blobBytes,
  LIST_METHOD,
  READ_METHOD,
  toHostResourcesError,
} from "@/packages/host-resources/src/index";

/**
 * packages/host-resources (issue 5 "For server authors"): `host(ctx, server)` inside real tool
 * handlers of SDK v1 and v2 servers, connected in memory to a client that plays the host:
 * it claims (or not) the capability and answers the two methods. Test names quote seed 000.
 */

const ID = "ai.nimblebrain/host-resources";
const FULL = { read: { enabled: true, range: false, maxSize: 10485760 }, list: { enabled: true }, write: { enabled: false }, schemes: ["files"] };

/** How the fake host answers: a result, or [code, message, data] to fail with. */
type Answer = { result: Record<string, unknown> } | { error: [number, string, unknown?] };
interface FakeHost {
  answer: (method: string, params: any) => Answer;
  received: Array<{ method: string; params: any }>;
}

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c().catch(() => undefined)));
});

function fakeHost(answer: FakeHost["answer"] = () => ({ result: { contents: [] } })): FakeHost {
  return { answer, received: [] };
}

/** Runs `body` inside a tool call of an SDK v1 McpServer, with `host(extra, server)`. */
async function inV1Tool<T>(capabilities: Record<string, unknown>, fake: FakeHost, body: (h: HostResources) => Promise<T>): Promise<T> {
  const server = new V1McpServer({ name: "v1-author", version: "1.0.0" });
  let outcome: { value: T } | { error: unknown } | undefined;
  server.registerTool("run", { description: "runs the test body" }, async (extra) => {
    try {
      outcome = { value: await body(host(extra, server)) };
    } catch (error) {
      outcome = { error };
    }
    return { content: [{ type: "text", text: "done" }] };
  });
  const client = new V1Client({ name: "fake-host", version: "1.0.0" }, { capabilities });
  for (const method of [READ_METHOD, LIST_METHOD]) {
    client.setRequestHandler(z.object({ method: z.literal(method), params: z.any().optional() }), (request) => {
      fake.received.push({ method, params: request.params });
      const a = fake.answer(method, request.params);
      if ("error" in a) throw new McpError(a.error[0], a.error[1], a.error[2]);
      return a.result;
    });
  }
  const [a, b] = V1InMemory.createLinkedPair();
  await server.connect(a);
  await client.connect(b);
  closers.push(() => client.close(), () => server.close());
  await client.callTool({ name: "run", arguments: {} });
  if (!outcome) throw new Error("the tool did not run");
  if ("error" in outcome) throw outcome.error;
  return outcome.value;
}

/** The same inside an SDK v2 McpServer on a 2025-era (initialize) connection, with `host(ctx, server)`. */
async function inV2Tool<T>(capabilities: Record<string, unknown>, fake: FakeHost, body: (h: HostResources) => Promise<T>): Promise<T> {
  const server = new V2McpServer({ name: "v2-author", version: "1.0.0" });
  let outcome: { value: T } | { error: unknown } | undefined;
  server.registerTool("run", { description: "runs the test body" }, async (ctx) => {
    try {
      outcome = { value: await body(host(ctx, server)) };
    } catch (error) {
      outcome = { error };
    }
    return { content: [{ type: "text" as const, text: "done" }] };
  });
  const client = new V2Client({ name: "fake-host", version: "1.0.0" }, { capabilities });
  for (const method of [READ_METHOD, LIST_METHOD]) {
    client.setRequestHandler(method, { params: z.unknown() }, (params) => {
      fake.received.push({ method, params });
      const a = fake.answer(method, params);
      if ("error" in a) throw new V2ClientProtocolError(a.error[0], a.error[1], a.error[2]);
      return a.result;
    });
  }
  const [a, b] = V2InMemory.createLinkedPair();
  await server.connect(a);
  await client.connect(b);
  closers.push(() => client.close(), () => server.close());
  await client.callTool({ name: "run", arguments: {} });
  if (!outcome) throw new Error("the tool did not run");
  if ("error" in outcome) throw outcome.error;
  return outcome.value;
}

const sdks = [
  ["SDK v1 (@modelcontextprotocol/sdk)", inV1Tool],
  ["SDK v2 (@modelcontextprotocol/server)", inV2Tool],
] as const;

describe.each(sdks)("host(ctx) in a tool of an %s server", (_name, inTool) => {
  it("h.available is true when read is enabled, and h.list_available is true when list is enabled", async () => {
    const flags = await inTool({ extensions: { [ID]: FULL } }, fakeHost(), async (h) => [h.available, h.listAvailable, h.maxReadSize]);
    expect(flags).toEqual([true, true, 10485760]);
  });

  it("Check enabled on the specific operation you call. Do not infer one operation from another.", async () => {
    const readOnly = { ...FULL, list: { enabled: false } };
    const fake = fakeHost();
    const seen = await inTool({ extensions: { [ID]: readOnly } }, fake, async (h) => {
      const listError = await h.list().catch((e: unknown) => e);
      return { available: h.available, listAvailable: h.listAvailable, listError };
    });
    expect(seen.available).toBe(true);
    expect(seen.listAvailable).toBe(false);
    expect(seen.listError).toBeInstanceOf(HostResourcesUnavailableError);
    expect(fake.received).toEqual([]);

    const listOnly = { ...FULL, read: { enabled: false, range: false, maxSize: 1 } };
    const readError = await inTool({ extensions: { [ID]: listOnly } }, fake, async (h) => {
      expect([h.available, h.listAvailable]).toEqual([false, true]);
      return h.read("files://fl_abc123").catch((e: unknown) => e);
    });
    expect(readError).toBeInstanceOf(HostResourcesUnavailableError);
    expect((readError as HostResourcesUnavailableError).operation).toBe("read");
    expect(fake.received).toEqual([]);
  });

  it("no capability claimed: nothing is available and nothing is sent (the tool takes content inline)", async () => {
    const fake = fakeHost();
    const seen = await inTool({}, fake, async (h) => ({ available: h.available, list: h.listAvailable, files: h.supportsScheme("files"), read: await h.read("files://fl_x").catch((e: unknown) => e) }));
    expect(seen).toMatchObject({ available: false, list: false, files: false });
    expect(seen.read).toBeInstanceOf(HostResourcesUnavailableError);
    expect(fake.received).toEqual([]);
  });

  it("a capability mirrored under `experimental` (hosts do so for SDKs that drop unknown keys) is found too", async () => {
    const flags = await inTool({ experimental: { [ID]: FULL } }, fakeHost(), async (h) => [h.available, h.listAvailable]);
    expect(flags).toEqual([true, true]);
  });

  it("h.supports_scheme(\"files\") checks the scheme allowlist", async () => {
    const checks = await inTool({ extensions: { [ID]: FULL } }, fakeHost(), async (h) => ["files", "FILES", "files:", "files://", "https", "file"].map((s) => h.supportsScheme(s)));
    expect(checks).toEqual([true, true, true, true, false, false]);
  });

  it("ai.nimblebrain/resources/read: the params and result are exactly those of the specification's resources/read", async () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 255]);
    const fake = fakeHost((_m, params) =>
      params.uri === "files://fl_csv"
        ? { result: { contents: [{ uri: params.uri, mimeType: "text/csv", text: "region,revenue\nnorth,10\n" }] } }
        : { result: { contents: [{ uri: params.uri, mimeType: "image/png", blob: Buffer.from(png).toString("base64") }] } },
    );
    const [csv, image] = await inTool({ extensions: { [ID]: FULL } }, fake, async (h) => [await h.read("files://fl_csv"), await h.read("files://fl_png")]);
    expect(fake.received).toEqual([
      { method: READ_METHOD, params: { uri: "files://fl_csv" } },
      { method: READ_METHOD, params: { uri: "files://fl_png" } },
    ]);
    expect(csv).toEqual({ contents: [{ uri: "files://fl_csv", mimeType: "text/csv", text: "region,revenue\nnorth,10\n" }] });
    expect(isTextContents(csv.contents[0])).toBe(true);
    const blob = image.contents[0];
    expect(isTextContents(blob)).toBe(false);
    expect(Array.from(blobBytes(blob as { uri: string; blob: string }))).toEqual(Array.from(png));
  });

  it("ai.nimblebrain/resources/list: an optional filter rides in params._meta.filter; no filter sends none", async () => {
    const resources = [{ uri: "files://fl_def456", name: "msa-2026.pdf", mimeType: "application/pdf" }];
    const fake = fakeHost(() => ({ result: { resources } }));
    const results = await inTool({ extensions: { [ID]: FULL } }, fake, async (h) => [await h.list({ mimeType: "application/pdf", tags: ["contracts"] }), await h.list()]);
    expect(results).toEqual([{ resources }, { resources }]);
    expect(fake.received.map((r) => r.params)).toEqual([{ _meta: { filter: { mimeType: "application/pdf", tags: ["contracts"] } } }, {}]);
  });

  it("Errors: each code of the seed's table becomes its typed error with error.data's fields", async () => {
    const table: Record<string, [number, string, unknown]> = {
      "files://missing": [-32002, "Resource not found: files://missing", { uri: "files://missing" }],
      "https://x": [-32602, "Unsupported URI scheme", { uri: "https://x", supported: ["files"] }],
      "files://busy": [-32004, "Rate limited", { retryAfterMs: 1234 }],
      "files://huge": [-32005, "Resource too large", { uri: "files://huge", size: 11534336, maxSize: 10485760 }],
      "files://odd": [-32603, "Internal error", undefined],
    };
    const listErrors: Array<[number, string, unknown]> = [
      [-32602, "Pagination is not supported", { cursor: "c1" }],
      [-32602, "Invalid params: tags", { receivedType: "string" }],
      [-32602, "Unsupported scheme filter", { scheme: "https", supported: ["files"] }],
    ];
    let listCall = 0;
    const fake = fakeHost((method, params) => ({ error: method === READ_METHOD ? table[params.uri] : listErrors[listCall++] }));
    const errors = await inTool({ extensions: { [ID]: FULL } }, fake, async (h) => {
      const caught: unknown[] = [];
      for (const uri of Object.keys(table)) caught.push(await h.read(uri).catch((e: unknown) => e));
      for (let i = 0; i < listErrors.length; i++) caught.push(await h.list().catch((e: unknown) => e));
      return caught;
    });
    const [notFound, scheme, limited, tooLarge, other, cursor, tags, filterScheme] = errors;
    expect(notFound).toBeInstanceOf(HostResourceNotFoundError);
    expect(notFound).toMatchObject({ code: -32002, uri: "files://missing", data: { uri: "files://missing" } });
    expect(scheme).toBeInstanceOf(HostResourcesInvalidParamsError);
    expect(scheme).toMatchObject({ code: -32602, uri: "https://x", supported: ["files"] });
    expect(limited).toBeInstanceOf(HostResourcesRateLimitedError);
    expect(limited).toMatchObject({ code: -32004, retryAfterMs: 1234 });
    expect(tooLarge).toBeInstanceOf(HostResourceTooLargeError);
    expect(tooLarge).toMatchObject({ code: -32005, uri: "files://huge", size: 11534336, maxSize: 10485760 });
    expect(other).toBeInstanceOf(HostResourcesError);
    expect(other).toMatchObject({ code: -32603 });
    expect(cursor).toMatchObject({ code: -32602, cursor: "c1" });
    expect(tags).toMatchObject({ code: -32602, receivedType: "string" });
    expect(filterScheme).toMatchObject({ code: -32602, scheme: "https", supported: ["files"] });
    for (const e of [scheme, cursor, tags, filterScheme]) expect(e).toBeInstanceOf(HostResourcesInvalidParamsError);
    // The host's message, without the SDK's "MCP error -32002: " prefix.
    expect((notFound as Error).message).toBe("Resource not found: files://missing");
  });

  it("a malformed answer is reported as such, not handed back as a ReadResourceResult", async () => {
    const fake = fakeHost(() => ({ result: { contents: [{ uri: "files://x", mimeType: "text/plain" }] } }));
    const error = await inTool({ extensions: { [ID]: FULL } }, fake, async (h) => h.read("files://x").catch((e: unknown) => e));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/neither text nor blob/);
  });
});

describe("Which connections can use it", () => {
  it("the methods are reachable only when the negotiated protocol version is earlier than 2026-07-28", () => {
    expect(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", undefined].map(isHostResourcesEra)).toEqual([true, true, true, true, true]);
    expect(["2026-07-28", "2027-01-01"].map(isHostResourcesEra)).toEqual([false, false]);
  });

  it("a 2026-07-28 request is not served even if its capabilities carry the extension", async () => {
    const sent: unknown[] = [];
    const ctx = {
      mcpReq: {
        send: async (request: unknown) => void sent.push(request),
        envelope: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": { extensions: { [ID]: FULL } },
        },
      },
    };
    const server = { getClientCapabilities: () => ({ extensions: { [ID]: FULL } }), getNegotiatedProtocolVersion: () => "2026-07-28" };
    const h = host(ctx, server);
    expect([h.available, h.listAvailable, h.capability, h.protocolVersion]).toEqual([false, false, null, "2026-07-28"]);
    await expect(h.read("files://fl_x")).rejects.toBeInstanceOf(HostResourcesUnavailableError);
    expect(sent).toEqual([]);
  });

  it("SDK v1: the revision the client names in MCP-Protocol-Version decides as well", () => {
    const server = { server: { getClientCapabilities: () => ({ extensions: { [ID]: FULL } }) } };
    const extra = (version: string) => ({ sendRequest: async () => ({}), requestInfo: { headers: { "mcp-protocol-version": version } } });
    expect(host(extra("2025-11-25"), server).available).toBe(true);
    expect(host(extra("2026-07-28"), server).available).toBe(false);
  });
});

describe("toHostResourcesError", () => {
  it("SDK v2 rebuilds a received -32002 { uri } as -32602 { uri } (its ResourceNotFoundError): still not found", () => {
    const e = toHostResourcesError({ code: -32602, message: "Resource not found: files://a", data: { uri: "files://a" } });
    expect(e).toBeInstanceOf(HostResourceNotFoundError);
    expect(e).toMatchObject({ uri: "files://a" });
    // With more than the uri it is the unsupported-scheme -32602.
    expect(toHostResourcesError({ code: -32602, message: "x", data: { uri: "https://a", supported: ["files"] } })).toBeInstanceOf(HostResourcesInvalidParamsError);
  });

  it("an error without a numeric code (a timeout, a closed connection) is passed through unchanged", () => {
    const original = new Error("Connection closed");
    expect(toHostResourcesError(original)).toBe(original);
  });
});
