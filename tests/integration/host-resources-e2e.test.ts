import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { upstreamPool } from "@/lib/connectors/runtime/default-pool";
import { createApiKeyFor, createTenant, createWorkspace, makeWorkspaceMember, type Tenant } from "@/tests/helpers/factories";
import { type ExampleUpstream, startExampleUpstream } from "@/tests/helpers/example-upstream";
import { PNG_1X1, sha256, uploadForm, type UploadPart, useTempFilesDir } from "@/tests/helpers/files";
import { connectV1, connectV2 } from "@/tests/helpers/mcp-clients";
import { type RouteServer, startRouteServer } from "@/tests/helpers/route-server";

/**
 * Issue 5 "End to end" and "Acceptance": examples/summarize-server runs as a real child process
 * (SDK v1, and SDK v2 for the 2026-07-28 case), is registered as an `mcp` connector through the
 * admin API, and its tools are called through /mcp/<serverId> over real HTTP with a user's key.
 * Every tool call makes the upstream process send ai.nimblebrain/resources/* back to us over
 * the outbound connection. Test names quote seed 000.
 */

let app: RouteServer;
let v1Upstream: ExampleUpstream;
let v2Upstream: ExampleUpstream;

beforeAll(async () => {
  useTempFilesDir();
  [app, v1Upstream, v2Upstream] = await Promise.all([
    startRouteServer(),
    startExampleUpstream(["--debug-tools"]),
    startExampleUpstream(["--sdk", "v2", "--debug-tools"]),
  ]);
});
afterAll(async () => {
  await upstreamPool().closeAll();
  await Promise.all([app?.close(), v1Upstream?.stop(), v2Upstream?.stop()]);
});
afterEach(() => {
  vi.unstubAllEnvs();
});

/** One request to the app over HTTP with a bearer key; JSON in, JSON out. */
async function http(token: string, method: string, path: string, body?: unknown | FormData) {
  const isForm = body instanceof FormData;
  const res = await fetch(`${app.origin}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined && !isForm ? { "content-type": "application/json" } : {}) },
    body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, text };
}

interface Scenario {
  t: Tenant;
  serverId: string;
  connectorId: string;
  url: string;
}

/** A tenant whose admin registered `upstream` as an mcp connector and assigned it to a new server. */
async function scenario(upstream: ExampleUpstream = v1Upstream): Promise<Scenario> {
  const t = await createTenant();
  const connector = await http(t.admin.token, "POST", `/api/v1/orgs/${t.org.id}/connectors`, { name: "Summarizer", type: "mcp", config: { url: upstream.url } });
  expect(connector.status, connector.text).toBe(201);
  const server = await http(t.admin.token, "POST", `/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Docs", connectorIds: [connector.body.id] });
  expect(server.status, server.text).toBe(201);
  return { t, serverId: server.body.id, connectorId: connector.body.id, url: `${app.origin}/mcp/${server.body.id}` };
}

/** Uploads one file through the files API (multipart over HTTP) as the holder of `token`. */
async function upload(token: string, workspaceId: string, part: UploadPart): Promise<{ id: string; uri: string; size: number; sha256: string; mimeType: string }> {
  const res = await http(token, "POST", `/api/v1/workspaces/${workspaceId}/files`, uploadForm(part));
  expect(res.status, res.text).toBe(201);
  return res.body;
}

interface ToolOutcome {
  isError: boolean;
  body: any;
}

/** Calls a tool through /mcp/<serverId> with a 2025-era (v1 SDK) client holding `token`. */
async function callTool(url: string, token: string, name: string, args: Record<string, unknown>, era: "v1" | "v2" = "v1"): Promise<ToolOutcome> {
  const connected = era === "v1" ? await connectV1(url, token) : await connectV2(url, token);
  try {
    const result = (await connected.client.callTool({ name, arguments: args })) as { content: Array<{ type: string; text?: string }>; isError?: boolean };
    const text = result.content.find((c) => c.type === "text")?.text ?? "null";
    return { isError: result.isError === true, body: JSON.parse(text) };
  } finally {
    await connected.close();
  }
}

/** host_request (--debug-tools): one raw request from the upstream process to us; the answer as it received it. */
const hostRequest = (s: Scenario, method: string, params: Record<string, unknown>) => callTool(s.url, s.t.member.token, "host_request", { method, params });

const CSV = "region,revenue\nnorth,10\nsouth,20\neast,30\n";

describe("End to end: examples/summarize-server as a real process, called through /mcp/<serverId> with a user's key", () => {
  it.each(["v1", "v2"] as const)(
    "the tool takes a URI such as files://fl_abc123, and the server reads the file from the host itself (CSV, MCP client %s)",
    async (era) => {
      const s = await scenario();
      const csv = await upload(s.t.member.token, s.t.workspace.id, { bytes: CSV, name: "q3.csv", type: "text/csv" });
      expect(csv.uri).toMatch(/^files:\/\/fl_[0-9a-f]{24}$/);

      const out = await callTool(s.url, s.t.member.token, "summarize", { file_uri: csv.uri }, era);
      expect(out.isError).toBe(false);
      expect(out.body).toMatchObject({ source: "file", uri: csv.uri, mimeType: "text/csv", bytes: CSV.length, lines: 4, truncated: false });
      expect(out.body.head + "\n").toBe(CSV);
      expect(out.body.sha256).toBe(sha256(CSV));

      // The read was the upstream's own request, audited for the member and this connector.
      const [event] = await db().auditEvent.findMany({ where: { orgId: s.t.org.id, action: "host_resources.read" } });
      expect(event).toMatchObject({ actorId: s.t.member.user.id, targetId: csv.id });
      expect(event.data).toMatchObject({ connectorId: s.connectorId, uri: csv.uri, outcome: "ok", as: "text" });
    },
  );

  it("A text MIME type comes back as text. Anything else comes back base64-encoded in blob (the PNG's bytes, unchanged)", async () => {
    const s = await scenario();
    const bytes = Buffer.concat([PNG_1X1, randomBytes(64 * 1024)]);
    const png = await upload(s.t.member.token, s.t.workspace.id, { bytes, name: "chart.png" });
    expect(png.mimeType).toBe("image/png");

    const out = await callTool(s.url, s.t.member.token, "summarize", { file_uri: png.uri });
    expect(out.isError).toBe(true);
    expect(out.body).toEqual({
      error: "summarize reads text files. This file came back as a binary blob.",
      blob: { uri: png.uri, mimeType: "image/png", bytes: bytes.length, sha256: sha256(bytes) },
    });
    expect(png.sha256).toBe(sha256(bytes));
  });

  it("pixel.png whose bytes start with the PNG signature but do not parse is image/png by its name: stored so, found by a mimeType filter, read back as an image/png blob", async () => {
    const s = await scenario();
    // The 8-byte signature and then no valid chunk: the sniffer recognises nothing, the name decides.
    const bytes = Buffer.concat([PNG_1X1.subarray(0, 8), Buffer.from([0xff, 0x00, 0x13, 0x37]), randomBytes(512)]);
    const pixel = await upload(s.t.member.token, s.t.workspace.id, { bytes, name: "pixel.png", type: "application/octet-stream" });
    expect(pixel.mimeType).toBe("image/png");
    expect(await db().file.findUnique({ where: { id: pixel.id }, select: { mimeType: true } })).toEqual({ mimeType: "image/png" });
    await upload(s.t.member.token, s.t.workspace.id, { bytes: "not an image\n", name: "notes.txt" });

    const listed = await hostRequest(s, "ai.nimblebrain/resources/list", { _meta: { filter: { mimeType: "image/png" } } });
    expect(listed.body.result.resources).toEqual([{ uri: pixel.uri, name: "pixel.png", mimeType: "image/png", size: bytes.length }]);
    const read = await hostRequest(s, "ai.nimblebrain/resources/read", { uri: pixel.uri });
    expect(read.body.result.contents).toEqual([{ uri: pixel.uri, mimeType: "image/png", blob: bytes.toString("base64") }]);
  });

  it("Fallback: the tool takes the content inline as an argument", async () => {
    const s = await scenario();
    const out = await callTool(s.url, s.t.member.token, "summarize", { text: "one two\nthree\n" });
    expect(out).toEqual({ isError: false, body: expect.objectContaining({ source: "inline", lines: 2, words: 3, head: "one two\nthree" }) });
  });

  it("A file that does not exist, and a file that exists somewhere the caller cannot see, return the same -32002: another user's private file, another workspace's file", async () => {
    const s = await scenario();
    const other = await createTenant();
    const adminsPrivate = await upload(s.t.admin.token, s.t.workspace.id, { bytes: "admin only", name: "salaries.csv" });
    const elsewhere = await upload(other.member.token, other.workspace.id, { bytes: "shared there", name: "there.txt", visibility: "workspace" });
    // The same member's own file in a second workspace of the same organization.
    const second = await createWorkspace(s.t.org.id);
    await makeWorkspaceMember({ orgId: s.t.org.id, workspaceId: second.id }, { id: s.t.member.user.id });
    const secondKey = await createApiKeyFor(s.t.member.user, { id: second.id, orgId: s.t.org.id });
    const ownElsewhere = await upload(secondKey.token, second.id, { bytes: "mine, but there", name: "mine.txt", visibility: "workspace" });
    const missing = `files://fl_${"0".repeat(24)}`;
    // The admin can read their own file: it exists, the member just cannot see it.
    expect((await callTool(s.url, s.t.admin.token, "summarize", { file_uri: adminsPrivate.uri })).isError).toBe(false);

    for (const uri of [adminsPrivate.uri, elsewhere.uri, ownElsewhere.uri, missing]) {
      const out = await callTool(s.url, s.t.member.token, "summarize", { file_uri: uri });
      expect(out).toEqual({ isError: true, body: { error: `Resource not found: ${uri}`, code: -32002, type: "HostResourceNotFoundError", data: { uri } } });
    }
  });

  it("read.maxSize: a resource larger than 10 MiB fails with -32005 { uri, size, maxSize } (an 11 MiB file)", async () => {
    const s = await scenario();
    const big = await upload(s.t.member.token, s.t.workspace.id, { bytes: randomBytes(11 * 1024 * 1024), name: "big.bin" });
    const out = await callTool(s.url, s.t.member.token, "summarize", { file_uri: big.uri });
    expect(out.isError).toBe(true);
    expect(out.body).toMatchObject({ code: -32005, type: "HostResourceTooLargeError", data: { uri: big.uri, size: 11 * 1024 * 1024, maxSize: 10485760 } });
  });

  it("-32004 Rate limited: each server in each workspace has its own request budget; a burst past it gets { retryAfterMs }", async () => {
    // A budget of 3 (default 120 a minute) so a short burst passes it.
    vi.stubEnv("HOST_RESOURCES_RATE_LIMIT", "3");
    vi.stubEnv("HOST_RESOURCES_RATE_WINDOW_SEC", "60");
    const s = await scenario();
    const csv = await upload(s.t.member.token, s.t.workspace.id, { bytes: CSV, name: "q3.csv" });
    const burst = [];
    for (let i = 0; i < 4; i++) burst.push(await callTool(s.url, s.t.member.token, "summarize", { file_uri: csv.uri }));
    expect(burst.slice(0, 3).map((o) => o.isError)).toEqual([false, false, false]);
    expect(burst[3].body).toMatchObject({ code: -32004, type: "HostResourcesRateLimitedError" });
    expect(Object.keys(burst[3].body.data)).toEqual(["retryAfterMs"]);
    expect(burst[3].body.data.retryAfterMs).toBeGreaterThan(0);
    expect(burst[3].body.data.retryAfterMs).toBeLessThanOrEqual(60_000);

    // The raw wire answer the upstream process received.
    const raw = await hostRequest(s, "ai.nimblebrain/resources/list", {});
    expect(raw.body.error).toMatchObject({ code: -32004, data: { retryAfterMs: expect.any(Number) } });

    // Another workspace's pair (same server software, another tenant) still has its whole budget.
    const fresh = await scenario();
    const mine = await upload(fresh.t.member.token, fresh.t.workspace.id, { bytes: CSV, name: "q3.csv" });
    expect((await callTool(fresh.url, fresh.t.member.token, "summarize", { file_uri: mine.uri })).isError).toBe(false);
  });

  it("On a 2025-era connection, the host advertises the capability in initialize (exactly the seed's object)", async () => {
    const s = await scenario();
    const out = await callTool(s.url, s.t.member.token, "host_info", {});
    // SDK v1 learns the revision from the MCP-Protocol-Version header our client sends.
    expect(out.body.protocolVersion).toMatch(/^2025-/);
    expect(out.body).toMatchObject({ available: true, listAvailable: true, supportsFiles: true });
    expect(out.body.clientCapabilities.extensions["ai.nimblebrain/host-resources"]).toEqual({
      read: { enabled: true, range: false, maxSize: 10485760 },
      list: { enabled: true },
      write: { enabled: false },
      schemes: ["files"],
    });
  });

  it("A 2026-07-28 upstream sees no capability: absent from every request's _meta, and its tools take content inline", async () => {
    const s = await scenario(v2Upstream);
    const csv = await upload(s.t.member.token, s.t.workspace.id, { bytes: CSV, name: "q3.csv" });

    // A 2026-07-28 caller: an `auto` connector reaches a 2025-era caller's calls by `initialize`
    // (issue 21), where the capability is claimed; this caller's go over 2026-07-28.
    const info = await callTool(s.url, s.t.member.token, "host_info", {}, "v2");
    expect(info.body).toMatchObject({ protocolVersion: "2026-07-28", available: false, listAvailable: false, capability: null });
    expect(JSON.stringify(info.body.clientCapabilities ?? {})).not.toContain("ai.nimblebrain/host-resources");

    const byUri = await callTool(s.url, s.t.member.token, "summarize", { file_uri: csv.uri }, "v2");
    expect(byUri).toEqual({ isError: true, body: { error: "This host cannot read files by URI. Pass the content as `text`." } });
    const inline = await callTool(s.url, s.t.member.token, "summarize", { text: CSV }, "v2");
    expect(inline.body).toMatchObject({ source: "inline", sha256: sha256(CSV) });
    expect(await db().auditEvent.count({ where: { orgId: s.t.org.id, action: { startsWith: "host_resources." } } })).toBe(0);
  });
});

describe("Every row of the seed's error table, through the real upstream process (raw requests as it received the answers)", () => {
  it("-32002 | Resource not found, or not visible to this caller | { uri }", async () => {
    const s = await scenario();
    const uri = `files://fl_${"a".repeat(24)}`;
    const out = await hostRequest(s, "ai.nimblebrain/resources/read", { uri });
    expect(out.body.error).toEqual({ code: -32002, message: expect.any(String), data: { uri }, type: "HostResourceNotFoundError" });
  });

  it("-32602 | Invalid params: unsupported scheme | { uri, supported }", async () => {
    const s = await scenario();
    const out = await hostRequest(s, "ai.nimblebrain/resources/read", { uri: "https://example.com/a.csv" });
    expect(out.body.error).toMatchObject({ code: -32602, data: { uri: "https://example.com/a.csv", supported: ["files"] }, type: "HostResourcesInvalidParamsError" });
  });

  it("-32602 | Invalid params: a cursor | { cursor } (Pagination is not supported, and a request that sends a cursor fails with -32602)", async () => {
    const s = await scenario();
    const out = await hostRequest(s, "ai.nimblebrain/resources/list", { cursor: "page-2" });
    expect(out.body.error).toMatchObject({ code: -32602, data: { cursor: "page-2" } });
  });

  it("-32602 | Invalid params: a malformed filter — non-array tags | { receivedType } (tags: Must be an array)", async () => {
    const s = await scenario();
    const out = await hostRequest(s, "ai.nimblebrain/resources/list", { _meta: { filter: { tags: "contracts" } } });
    expect(out.body.error).toMatchObject({ code: -32602, data: { receivedType: "string" } });
  });

  it("-32004 | Rate limited | { retryAfterMs } — and -32005 | Response too large | { uri, size, maxSize }", async () => {
    const s = await scenario();
    const big = await upload(s.t.member.token, s.t.workspace.id, { bytes: randomBytes(10_485_761), name: "just-over.bin" });
    const tooLarge = await hostRequest(s, "ai.nimblebrain/resources/read", { uri: big.uri });
    expect(tooLarge.body.error).toEqual({ code: -32005, message: expect.any(String), data: { uri: big.uri, size: 10_485_761, maxSize: 10_485_760 }, type: "HostResourceTooLargeError" });

    // A budget of 1 per 30 s (default 120 a minute) so the second request is limited.
    vi.stubEnv("HOST_RESOURCES_RATE_LIMIT", "1");
    vi.stubEnv("HOST_RESOURCES_RATE_WINDOW_SEC", "30");
    const s2 = await scenario();
    expect((await hostRequest(s2, "ai.nimblebrain/resources/list", {})).isError).toBe(false);
    const limited = await hostRequest(s2, "ai.nimblebrain/resources/list", {});
    expect(limited.body.error).toEqual({ code: -32004, message: expect.any(String), data: { retryAfterMs: expect.any(Number) }, type: "HostResourcesRateLimitedError" });
    expect(limited.body.error.data.retryAfterMs).toBeGreaterThan(0);
    expect(limited.body.error.data.retryAfterMs).toBeLessThanOrEqual(30_000);
  });
});

describe("Every row of the seed's filter table, through the real upstream process", () => {
  async function library(s: Scenario) {
    const up = (name: string, bytes: string, tags: string[]) => upload(s.t.member.token, s.t.workspace.id, { bytes, name, tags });
    return {
      msa2026: await up("msa-2026.pdf", "%PDF-1.4\n%%EOF\n", ["contracts", "2026"]),
      msa2025: await up("msa-2025.pdf", "%PDF-1.4\n%%EOF\n", ["contracts"]),
      sheet: await up("q3.csv", CSV, ["2026"]),
    };
  }
  const listUris = async (s: Scenario, args: Record<string, unknown>) => {
    const out = await callTool(s.url, s.t.member.token, "list_files", args);
    expect(out.isError, JSON.stringify(out.body)).toBe(false);
    return (out.body.resources as Array<{ uri: string }>).map((r) => r.uri).sort();
  };

  it("scheme | Only files is accepted. Any other value fails with -32602.", async () => {
    const s = await scenario();
    await library(s);
    const files = await hostRequest(s, "ai.nimblebrain/resources/list", { _meta: { filter: { scheme: "files" } } });
    expect(files.body.result.resources).toHaveLength(3);
    for (const scheme of ["https", "file", "anythingmcp"]) {
      const out = await hostRequest(s, "ai.nimblebrain/resources/list", { _meta: { filter: { scheme } } });
      expect(out.body.error).toMatchObject({ code: -32602, data: { scheme, supported: ["files"] } });
    }
  });

  it("mimeType | An exact MIME type.", async () => {
    const s = await scenario();
    const f = await library(s);
    expect(await listUris(s, { mimeType: "application/pdf" })).toEqual([f.msa2026.uri, f.msa2025.uri].sort());
    expect(await listUris(s, { mimeType: "text/csv" })).toEqual([f.sheet.uri]);
    expect(await listUris(s, { mimeType: "application/pd" })).toEqual([]);
    expect(await listUris(s, { mimeType: "application/*" })).toEqual([]);
  });

  it("tags | Files carrying every listed tag. Must be an array.", async () => {
    const s = await scenario();
    const f = await library(s);
    expect(await listUris(s, { tags: ["contracts"] })).toEqual([f.msa2026.uri, f.msa2025.uri].sort());
    expect(await listUris(s, { tags: ["contracts", "2026"] })).toEqual([f.msa2026.uri]);
    expect(await listUris(s, { tags: ["2026"] })).toEqual([f.msa2026.uri, f.sheet.uri].sort());
    expect(await listUris(s, { mimeType: "application/pdf", tags: ["2026"] })).toEqual([f.msa2026.uri]);
    expect(await listUris(s, { tags: ["contracts", "nope"] })).toEqual([]);
  });

  it("The whole list comes back in one response. Pagination is not supported (no nextCursor)", async () => {
    const s = await scenario();
    const uploaded = [];
    for (let i = 0; i < 25; i++) uploaded.push(await upload(s.t.member.token, s.t.workspace.id, { bytes: `row ${i}\n`, name: `part-${i}.txt` }));
    const out = await hostRequest(s, "ai.nimblebrain/resources/list", {});
    expect(Object.keys(out.body.result)).toEqual(["resources"]);
    expect(out.body.result.resources.map((r: { uri: string }) => r.uri).sort()).toEqual(uploaded.map((u) => u.uri).sort());
    expect(out.body.result.resources[0]).toEqual({ uri: expect.stringMatching(/^files:\/\/fl_/), name: expect.stringMatching(/^part-\d+\.txt$/), mimeType: "text/plain", size: expect.any(Number) });
  });
});
