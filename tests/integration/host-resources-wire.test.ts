import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { callerFromBearer } from "@/lib/auth/resolve-bearer";
import { db } from "@/lib/db/client";
import { callTool } from "@/lib/connectors/pipeline/call-tool";
import type { HostResourcesHandlers } from "@/lib/host-resources";
import type { ToolCallResult, UpstreamOwner } from "@/lib/connectors/runtime/types";
import { UpstreamPool } from "@/lib/connectors/runtime/upstream-pool";
import { handleHostResourcesList, handleHostResourcesRead } from "@/lib/host-resources";
import { HOST_RESOURCES_EXTENSION as HOST_RESOURCES_CAPABILITY_ID, LIST_METHOD as HOST_RESOURCES_LIST_METHOD, READ_METHOD as HOST_RESOURCES_READ_METHOD } from "@/packages/host-resources/src/protocol";
import { resolveCallerView } from "@/lib/mcp/visibility/resolve-view";
import { api } from "@/tests/helpers/api";
import { createTenant, createWorkspace, makeWorkspaceMember, type Tenant } from "@/tests/helpers/factories";
import { isTextMimeType } from "@/lib/mime/classify-mime-type";
import { PNG_1X1, upload, useTempFilesDir } from "@/tests/helpers/files";
import { type RecordedUpstream, startV1Upstream, startV2Upstream, type V1UpstreamOptions } from "@/tests/helpers/runtime-upstreams";

/**
 * Seed 000 (ai.nimblebrain/host-resources), the sentences about the wire between our outbound
 * connection (we are the HOST) and a real upstream MCP server on 127.0.0.1: which revisions
 * get the claim and the methods, that the claim matches what is served operation by operation,
 * and the exact answers the upstream receives — read from the JSON-RPC messages it recorded,
 * so "-32002 stays -32002" is checked on the wire itself, not through an SDK's error object.
 */

beforeAll(() => {
  useTempFilesDir();
});

const real: HostResourcesHandlers = { read: handleHostResourcesRead, list: handleHostResourcesList };

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

function newPool(hostResources: HostResourcesHandlers | null = real): UpstreamPool {
  const pool = new UpstreamPool({ hostResources });
  cleanups.push(() => pool.closeAll());
  return pool;
}

async function v1(options: V1UpstreamOptions = {}): Promise<RecordedUpstream> {
  const up = await startV1Upstream(options);
  cleanups.push(() => up.stop());
  return up;
}

async function v2(): Promise<RecordedUpstream> {
  const up = await startV2Upstream();
  cleanups.push(() => up.stop());
  return up;
}

/** An mcp connector on `up` made through the admin API and assigned to a new server of a new tenant. */
async function setup(up: RecordedUpstream, pool: UpstreamPool) {
  const t = await createTenant();
  const connector = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { name: "Docs", type: "mcp", config: { url: up.url } });
  expect(connector.status, connector.text).toBe(201);
  const server = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "S", connectorIds: [connector.body.id] });
  expect(server.status, server.text).toBe(201);
  const owner = (userId: string | null): UpstreamOwner => ({ orgId: t.org.id, workspaceId: t.workspace.id, userId, connectorId: connector.body.id });
  /** Calls the upstream's host_call tool as the member: it sends `method` back to us and reports what it got. */
  const hostCall = async (method: string, params: unknown, extra: Record<string, unknown> = {}) => {
    const caller = (await callerFromBearer(t.member.token))!;
    const view = (await resolveCallerView(caller, server.body.id))!;
    const result: ToolCallResult = await callTool({ caller, view, tool: view.toolsByExposedName.get("host_call")!, args: { method, params, ...extra } }, pool);
    return JSON.parse(result.content.map((c) => ("text" in c ? c.text : "")).join(""));
  };
  return { t, pool, owner, hostCall, connectorId: connector.body.id as string };
}

/** Our answers as the upstream received them: the JSON-RPC responses we POSTed back, in order. */
const answers = (up: RecordedUpstream) => up.messages.filter((m) => m.method === undefined && m.id !== undefined) as Array<{ id: unknown; result?: any; error?: any }>;

async function file(t: Tenant, who: "member" | "admin", name: string, bytes: Buffer | string, visibility?: string) {
  const res = await upload(t[who].token, t.workspace.id, { bytes, name, visibility });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; uri: string; size: number; mimeType: string };
}

describe("Which connections can use it", () => {
  it.each(["2025-11-25", "2025-06-18", "2025-03-26"])(
    "The methods are served on 2025-era connections only: a connection that negotiated 2025-11-25 or an earlier revision through initialize (%s) claims the capability and serves the methods",
    async (revision) => {
      const up = await v1({ protocolVersion: revision });
      const { t, pool, owner, hostCall } = await setup(up, newPool());
      const csv = await file(t, "member", "q3.csv", "region,revenue\n");
      expect(await hostCall(HOST_RESOURCES_READ_METHOD, { uri: csv.uri })).toEqual({ result: { contents: [{ uri: csv.uri, mimeType: "text/csv", text: "region,revenue\n" }] } });
      expect((await pool.connectionFor(owner(t.member.user.id)))?.protocolVersion).toBe(revision);
      expect(up.initializes().at(-1)!.params.capabilities.extensions[HOST_RESOURCES_CAPABILITY_ID]).toMatchObject({ read: { enabled: true }, list: { enabled: true } });
    },
  );

  it("Not claimed or served on 2026-07-28: a 2026-07-28 upstream that sends ai.nimblebrain/resources/read anyway cannot reach it — no handler runs and no answer is sent", async () => {
    const up = await v2();
    const ran: string[] = [];
    const spy: HostResourcesHandlers = {
      read: async (ctx, params) => (ran.push("read"), real.read!(ctx, params)),
      list: async (ctx, params) => (ran.push("list"), real.list!(ctx, params)),
    };
    const { t, pool, owner, hostCall } = await setup(up, newPool(spy));
    const csv = await file(t, "member", "q3.csv", "a,b\n");
    const before = up.messages.length;
    for (const [method, params] of [[HOST_RESOURCES_READ_METHOD, { uri: csv.uri }], [HOST_RESOURCES_LIST_METHOD, {}]] as const) {
      const out = await hostCall(method, params, { timeoutMs: 1000 });
      expect(out.result).toBeUndefined();
      expect(out.error).toBeDefined();
    }
    expect((await pool.connectionFor(owner(t.member.user.id)))?.protocolVersion).toBe("2026-07-28");
    expect(ran).toEqual([]);
    expect(answers({ ...up, messages: up.messages.slice(before) })).toEqual([]);
    expect(JSON.stringify(up.messages)).not.toContain(HOST_RESOURCES_CAPABILITY_ID);
    expect(await db().auditEvent.count({ where: { orgId: t.org.id, action: { startsWith: "host_resources." } } })).toBe(0);
  });

  it("The host claims the capability only where it serves the methods: a connection that serves nothing claims nothing, and the methods answer -32601", async () => {
    const up = await v1();
    const { hostCall } = await setup(up, newPool(null));
    expect(await hostCall(HOST_RESOURCES_READ_METHOD, { uri: `files://fl_${"0".repeat(24)}` })).toEqual({ error: { code: -32601 } });
    expect(await hostCall(HOST_RESOURCES_LIST_METHOD, {})).toEqual({ error: { code: -32601 } });
    const init = up.initializes().at(-1)!;
    expect(JSON.stringify(init.params.capabilities)).not.toContain(HOST_RESOURCES_CAPABILITY_ID);
  });

  it("The host claims the capability only where it serves the methods: tool discovery's connection (which serves nothing) claims nothing; the pooled connection that serves them does", async () => {
    const up = await v1();
    const { hostCall } = await setup(up, newPool());
    const [discovery] = up.initializes();
    expect(JSON.stringify(discovery.params.capabilities)).not.toContain(HOST_RESOURCES_CAPABILITY_ID);
    expect(await hostCall(HOST_RESOURCES_LIST_METHOD, {})).toEqual({ result: { resources: [] } });
    expect(up.initializes()).toHaveLength(2);
    expect(up.initializes()[1].params.capabilities.extensions).toHaveProperty([HOST_RESOURCES_CAPABILITY_ID]);
  });
});

describe("Capability", () => {
  it("Check enabled on the specific operation you call. Do not infer one operation from another: a host that serves read only claims list.enabled false, and list is not served", async () => {
    const up = await v1();
    const { t, hostCall } = await setup(up, newPool({ read: handleHostResourcesRead }));
    const csv = await file(t, "member", "a.csv", "a\n");
    expect(await hostCall(HOST_RESOURCES_READ_METHOD, { uri: csv.uri })).toMatchObject({ result: { contents: [{ uri: csv.uri, text: "a\n" }] } });
    expect(await hostCall(HOST_RESOURCES_LIST_METHOD, {})).toEqual({ error: { code: -32601 } });
    // The claim of the connection those calls went over (the tool discovery's own connection claims nothing).
    const claim = up.initializes().at(-1)!.params.capabilities.extensions[HOST_RESOURCES_CAPABILITY_ID];
    expect(claim).toEqual({ read: { enabled: true, range: false, maxSize: 10485760 }, list: { enabled: false }, write: { enabled: false }, schemes: ["files"] });
  });

  it("write.enabled: Writing back to the host. false today — and no write method is served (-32601)", async () => {
    const up = await v1();
    const { hostCall } = await setup(up, newPool());
    expect(await hostCall("ai.nimblebrain/resources/write", { uri: `files://fl_${"0".repeat(24)}`, contents: [] })).toEqual({ error: { code: -32601 } });
    expect(up.initializes().at(-1)!.params.capabilities.extensions[HOST_RESOURCES_CAPABILITY_ID].write).toEqual({ enabled: false });
  });

  it("read.range: false today: every read returns the whole resource (a range asked for anyway is ignored)", async () => {
    const up = await v1();
    const { t, hostCall } = await setup(up, newPool());
    const bytes = randomBytes(200_000);
    const bin = await file(t, "member", "data.bin", bytes);
    const out = await hostCall(HOST_RESOURCES_READ_METHOD, { uri: bin.uri, range: { start: 0, end: 9 } });
    expect(Buffer.from(out.result.contents[0].blob, "base64").equals(bytes)).toBe(true);
  });
});

describe("ai.nimblebrain/resources/read on the wire", () => {
  it("Read one resource. The params and result are exactly those of the specification's resources/read: text for a text MIME type, base64 blob otherwise", async () => {
    const up = await v1();
    const { t, hostCall } = await setup(up, newPool());
    const csv = await file(t, "member", "q3.csv", "region,revenue\n...");
    const png = await file(t, "member", "pixel.png", PNG_1X1);
    await hostCall(HOST_RESOURCES_READ_METHOD, { uri: csv.uri });
    await hostCall(HOST_RESOURCES_READ_METHOD, { uri: png.uri });
    const [textAnswer, blobAnswer] = answers(up);
    expect(textAnswer).toEqual({ jsonrpc: "2.0", id: expect.anything(), result: { contents: [{ uri: csv.uri, mimeType: "text/csv", text: "region,revenue\n..." }] } });
    expect(blobAnswer).toEqual({ jsonrpc: "2.0", id: expect.anything(), result: { contents: [{ uri: png.uri, mimeType: "image/png", blob: PNG_1X1.toString("base64") }] } });
  });
});

describe("A text MIME type comes back as text. Anything else comes back base64-encoded in blob.", () => {
  it("every textual type the files workspace gives an upload by its name comes back as text, read through the real handler", async () => {
    const t = await createTenant();
    const ctx = { orgId: t.org.id, workspaceId: t.workspace.id, userId: t.member.user.id, connectorId: "c-text-types" };
    // Text formats people upload; among them names the registry types as something else (.ts is
    // MPEG transport stream there) and names it does not know (.jsonl, .py).
    const extensions = ["csv", "tsv", "txt", "log", "md", "json", "jsonl", "ndjson", "geojson", "xml", "svg", "yaml", "yml", "html", "css", "js", "mjs", "ts", "py", "sql", "ics", "vcf", "rtf", "toml", "sh", "tex"];
    const types = new Set<string>();
    for (const extension of extensions) {
      const body = `line one .${extension}\nline two ✓\n`;
      const uploaded = await file(t, "member", `sample.${extension}`, body);
      types.add(uploaded.mimeType);
      expect(isTextMimeType(uploaded.mimeType), `${extension}: ${uploaded.mimeType}`).toBe(true);
      const { contents } = await handleHostResourcesRead(ctx, { uri: uploaded.uri });
      expect(contents, extension).toEqual([{ uri: uploaded.uri, mimeType: uploaded.mimeType, text: body }]);
    }
    expect([...types]).toEqual(expect.arrayContaining(["text/csv", "application/json", "application/geo+json", "image/svg+xml", "text/yaml", "text/plain"]));
    const bin = await file(t, "member", "blob.bin", PNG_1X1.subarray(8));
    expect((await handleHostResourcesRead(ctx, { uri: bin.uri })).contents[0]).toEqual({ uri: bin.uri, mimeType: "application/octet-stream", blob: PNG_1X1.subarray(8).toString("base64") });
  });
});

describe("files typed by the earlier hand-kept table", () => {
  it("a text upload stored as application/sql (or jsonl, ndjson, toml, rtf) reads back as text once the migration has run", async () => {
    const t = await createTenant();
    const ctx = { orgId: t.org.id, workspaceId: t.workspace.id, userId: t.member.user.id, connectorId: "c-legacy" };
    const body = "select 1;\n";
    const legacy = await file(t, "member", "query.sql", body);
    await db().file.update({ where: { id: legacy.id, orgId: t.org.id }, data: { mimeType: "application/sql" } });
    expect((await handleHostResourcesRead(ctx, { uri: legacy.uri })).contents[0]).toHaveProperty("blob");

    const sql = fs.readFileSync("prisma/migrations/20261201111000_text_upload_types/migration.sql", "utf8");
    await db().$executeRawUnsafe(sql);
    expect((await handleHostResourcesRead(ctx, { uri: legacy.uri })).contents).toEqual([{ uri: legacy.uri, mimeType: "text/plain", text: body }]);
  });
});

describe("Errors: -32002 reaches a 2025-era upstream as -32002", () => {
  it.each(["2025-11-25", "2025-03-26"])(
    "-32002 | Resource not found, or not visible to this caller | { uri } — on the wire of a %s connection, never rewritten to -32602",
    async (revision) => {
      const up = await v1({ protocolVersion: revision });
      const { t, hostCall } = await setup(up, newPool());
      const missing = `files://fl_${"a".repeat(24)}`;
      const hidden = (await file(t, "admin", "private.csv", "admin only\n")).uri;
      for (const uri of [missing, hidden]) expect(await hostCall(HOST_RESOURCES_READ_METHOD, { uri })).toEqual({ error: { code: -32002, data: { uri } } });
      const errors = answers(up).map((a) => a.error);
      expect(errors).toEqual([missing, hidden].map((uri) => ({ code: -32002, message: `Resource not found: ${uri}`, data: { uri } })));
    },
  );

  it("-32602 { uri | scheme, supported }, { cursor }, { receivedType }; -32004 { retryAfterMs }; -32005 { uri, size, maxSize } — each error.data exactly, on the wire", async () => {
    const up = await v1();
    const { t, hostCall } = await setup(up, newPool());
    const big = await file(t, "member", "big.bin", randomBytes(10_485_761));
    await hostCall(HOST_RESOURCES_READ_METHOD, { uri: "https://example.com/a.csv" });
    await hostCall(HOST_RESOURCES_LIST_METHOD, { _meta: { filter: { scheme: "s3" } } });
    await hostCall(HOST_RESOURCES_LIST_METHOD, { cursor: "page-2" });
    await hostCall(HOST_RESOURCES_LIST_METHOD, { _meta: { filter: { tags: "contracts" } } });
    await hostCall(HOST_RESOURCES_READ_METHOD, { uri: big.uri });
    // A budget of one request per window (a new budget: its size is part of the limiter's name).
    vi.stubEnv("HOST_RESOURCES_RATE_LIMIT", "1");
    vi.stubEnv("HOST_RESOURCES_RATE_WINDOW_SEC", "30");
    await hostCall(HOST_RESOURCES_LIST_METHOD, {});
    await hostCall(HOST_RESOURCES_LIST_METHOD, {});
    const [limited] = answers(up).slice(-1);
    expect(Object.keys(limited.error.data)).toEqual(["retryAfterMs"]);
    expect(limited.error.data.retryAfterMs).toBeGreaterThan(0);
    expect(limited.error.data.retryAfterMs).toBeLessThanOrEqual(30_000);
    expect(answers(up).map((a) => a.error && { code: a.error.code, data: a.error.data })).toEqual([
      { code: -32602, data: { uri: "https://example.com/a.csv", supported: ["files"] } },
      { code: -32602, data: { scheme: "s3", supported: ["files"] } },
      { code: -32602, data: { cursor: "page-2" } },
      { code: -32602, data: { receivedType: "string" } },
      { code: -32005, data: { uri: big.uri, size: 10_485_761, maxSize: 10_485_760 } },
      undefined,
      { code: -32004, data: { retryAfterMs: limited.error.data.retryAfterMs } },
    ]);
  });
});

describe("Scope: which files a server can see", () => {
  it("The URI names a file, never a workspace: a URI that also names a workspace (authority, path, query, fragment) names no file: -32002 { uri }", async () => {
    const up = await v1();
    const { t, hostCall } = await setup(up, newPool());
    const second = await createWorkspace(t.org.id);
    await makeWorkspaceMember({ orgId: t.org.id, workspaceId: second.id }, { id: t.member.user.id });
    const here = await file(t, "member", "here.txt", "here", "workspace");
    const uris = [
      `files://${t.workspace.id}/${here.id}`,
      `files://${second.id}/${here.id}`,
      `files://${here.id}?workspace=${second.id}`,
      `files://${here.id}#${second.id}`,
      `files://${second.id}`,
      `files://${t.workspace.id}`,
    ];
    for (const uri of uris) expect(await hostCall(HOST_RESOURCES_READ_METHOD, { uri })).toEqual({ error: { code: -32002, data: { uri } } });
    // The file itself is readable by its plain URI.
    expect(await hostCall(HOST_RESOURCES_READ_METHOD, { uri: here.uri })).toMatchObject({ result: { contents: [{ uri: here.uri, text: "here" }] } });
  });

  it("A server cannot use reads to discover what exists outside its scope: a file over read.maxSize the caller cannot see answers -32002, never -32005", async () => {
    const up = await v1();
    const { t, hostCall } = await setup(up, newPool());
    const hiddenBig = await file(t, "admin", "admins-big.bin", randomBytes(10_485_761));
    expect(await hostCall(HOST_RESOURCES_READ_METHOD, { uri: hiddenBig.uri })).toEqual({ error: { code: -32002, data: { uri: hiddenBig.uri } } });
    const missing = `files://fl_${"b".repeat(24)}`;
    expect(await hostCall(HOST_RESOURCES_READ_METHOD, { uri: missing })).toEqual({ error: { code: -32002, data: { uri: missing } } });
    const [a, b] = answers(up).map((m) => m.error);
    expect(a.message.replace(hiddenBig.uri, "<uri>")).toBe(b.message.replace(missing, "<uri>"));
  });
});

describe("ai.nimblebrain/resources/list on the wire", () => {
  it("It fails instead of silently returning the full set, so a server's pagination loop knows the feature is missing", async () => {
    const up = await v1();
    const { t, hostCall } = await setup(up, newPool());
    const uploaded = [await file(t, "member", "a.txt", "a"), await file(t, "member", "b.txt", "b")];
    // A pagination loop: the first page is the whole list, with no nextCursor to follow...
    const first = await hostCall(HOST_RESOURCES_LIST_METHOD, {});
    expect(Object.keys(first.result)).toEqual(["resources"]);
    expect(first.result.resources.map((r: { uri: string }) => r.uri).sort()).toEqual(uploaded.map((u) => u.uri).sort());
    // ...and a loop that sends a cursor anyway is told pagination is missing, not given the set again.
    for (const cursor of ["2", "", "eyJvZmZzZXQiOjJ9"]) {
      const next = await hostCall(HOST_RESOURCES_LIST_METHOD, { cursor });
      expect(next).toEqual({ error: { code: -32602, data: { cursor } } });
    }
  });
});
