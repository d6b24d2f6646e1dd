import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFromBearer } from "@/lib/auth/resolve-bearer";
import { callTool } from "@/lib/connectors/pipeline/call-tool";
import type { ToolCallResult } from "@/lib/connectors/runtime/types";
import { UpstreamPool } from "@/lib/connectors/runtime/upstream-pool";
import { handleHostResourcesList, handleHostResourcesRead } from "@/lib/host-resources";
import { READ_METHOD as HOST_RESOURCES_READ_METHOD } from "@/packages/host-resources/src/protocol";
import { resolveCallerView } from "@/lib/mcp/visibility/resolve-view";
import { api } from "@/tests/helpers/api";
import { createTenant, type Tenant } from "@/tests/helpers/factories";
import { upload, useTempFilesDir } from "@/tests/helpers/files";
import { type RecordedUpstream, startV1Upstream } from "@/tests/helpers/runtime-upstreams";

/**
 * Issue 10 point 4: "The audit log is no side door to private content." A member has a real
 * upstream MCP server read their private file (seed 000 host resources) and return its text;
 * the org owner, who gets 404 on the file, must not read that text in the audit log unless the
 * org chose `arguments_and_results` — and even then only a bounded excerpt.
 */

const SECRET = "MEMBER-PRIVATE-7f3a9c";
/** 40 KB of private text: larger than what one stored excerpt may keep. */
const PRIVATE_TEXT = `${SECRET} salary review notes\n${"confidential line\n".repeat(2300)}`;

let up: RecordedUpstream;
let pool: UpstreamPool;
beforeAll(async () => {
  useTempFilesDir();
  up = await startV1Upstream();
  pool = new UpstreamPool({ hostResources: { read: handleHostResourcesRead, list: handleHostResourcesList } });
});
afterAll(async () => {
  await pool.closeAll();
  await up.stop();
});

async function setup() {
  const t = await createTenant();
  const connector = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { name: "Summarizer", type: "mcp", config: { url: up.url } });
  expect(connector.status, connector.text).toBe(201);
  const server = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "S", connectorIds: [connector.body.id] });
  expect(server.status, server.text).toBe(201);
  const file = await upload(t.member.token, t.workspace.id, { bytes: PRIVATE_TEXT, name: "review.txt", visibility: "private" });
  expect(file.status, file.text).toBe(201);
  /** The member has the upstream read their file through us; the tool result carries the text. */
  const readThroughTool = async () => {
    const caller = (await callerFromBearer(t.member.token))!;
    const view = (await resolveCallerView(caller, server.body.id))!;
    const args = { method: HOST_RESOURCES_READ_METHOD, params: { uri: file.body.uri } };
    const result: ToolCallResult = await callTool({ caller, view, tool: view.toolsByExposedName.get("host_call")!, args }, pool);
    expect(JSON.stringify(result)).toContain(SECRET);
  };
  return { t, fileId: file.body.id as string, readThroughTool };
}

/** The owner's view of the audit log, as the JSON API serves it. */
async function ownersAuditLog(t: Tenant) {
  const res = await api(t.owner.token).get(`/api/v1/orgs/${t.org.id}/audit?limit=100`);
  expect(res.status, res.text).toBe(200);
  return res.body.items as Array<{ action: string; data: Record<string, any> }>;
}

async function setDetail(t: Tenant, toolAuditDetail: string) {
  const res = await api(t.owner.token).patch(`/api/v1/orgs/${t.org.id}`, { toolAuditDetail });
  expect(res.status, res.text).toBe(200);
  expect(res.body.toolAuditDetail).toBe(toolAuditDetail);
}

describe("a member's private file read through an upstream tool, and the owner's audit log", () => {
  it("by default (metadata) the owner gets 404 on the file and finds no file text in the log: only sizes, hashes and the outcome", async () => {
    const { t, fileId, readThroughTool } = await setup();
    expect((await api(t.owner.token).get(`/api/v1/orgs/${t.org.id}`)).body.toolAuditDetail).toBe("metadata");
    await readThroughTool();
    expect((await api(t.owner.token).get(`/api/v1/files/${fileId}`)).status).toBe(404);
    const log = await ownersAuditLog(t);
    expect(JSON.stringify(log)).not.toContain(SECRET);
    const call = log.find((e) => e.action === "tool.call")!;
    expect(call.data).toMatchObject({ detail: "metadata", status: "finished", outcome: "ok", resultSha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(call.data.resultSize).toBeGreaterThan(PRIVATE_TEXT.length);
    expect(call.data).not.toHaveProperty("result");
    expect(call.data).not.toHaveProperty("arguments");
    // The host-resource read itself records the URI and size, never content.
    const read = log.find((e) => e.action === "host_resources.read")!;
    expect(read.data).toMatchObject({ outcome: "ok", uri: `files://${fileId}`, size: Buffer.byteLength(PRIVATE_TEXT) });
  });

  it("`arguments` keeps what the member sent (here the file's URI) and still no file text", async () => {
    const { t, fileId, readThroughTool } = await setup();
    await setDetail(t, "arguments");
    await readThroughTool();
    const log = await ownersAuditLog(t);
    expect(JSON.stringify(log)).not.toContain(SECRET);
    const call = log.find((e) => e.action === "tool.call")!;
    expect(call.data.arguments).toEqual({ method: HOST_RESOURCES_READ_METHOD, params: { uri: `files://${fileId}` } });
    expect(call.data).not.toHaveProperty("result");
  });

  it("`arguments_and_results` is the one setting that shows the text, cut to a 16 KB excerpt with a truncation marker", async () => {
    const { t, readThroughTool } = await setup();
    await setDetail(t, "arguments_and_results");
    await readThroughTool();
    const call = (await ownersAuditLog(t)).find((e) => e.action === "tool.call")!;
    expect(call.data.result).toMatchObject({ truncated: true, bytes: call.data.resultSize });
    expect(call.data.result.preview).toContain(SECRET);
    expect(Buffer.byteLength(JSON.stringify(call.data.result))).toBeLessThanOrEqual(16 * 1024);
  });
});

describe("the setting in the JSON API", () => {
  it("round-trips through PATCH and GET, is audited with its old and new value, and only an owner may change it", async () => {
    const t = await createTenant();
    await setDetail(t, "arguments");
    expect((await api(t.admin.token).get(`/api/v1/orgs/${t.org.id}`)).body.toolAuditDetail).toBe("arguments");
    const [change] = (await ownersAuditLog(t)).filter((e) => e.action === "org.update");
    expect(change.data).toMatchObject({ fields: ["toolAuditDetail"], toolAuditDetail: { from: "metadata", to: "arguments" } });

    const byAdmin = await api(t.admin.token).patch(`/api/v1/orgs/${t.org.id}`, { toolAuditDetail: "arguments_and_results" });
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.headers.get("content-type")).toContain("application/problem+json");
    expect((await api(t.member.token).patch(`/api/v1/orgs/${t.org.id}`, { toolAuditDetail: "metadata" })).status).toBe(404);
    expect((await api(t.owner.token).patch(`/api/v1/orgs/${t.org.id}`, { toolAuditDetail: "everything" })).status).toBe(422);
    // Renaming is still an admin's business; sending the current value along changes nothing.
    expect((await api(t.admin.token).patch(`/api/v1/orgs/${t.org.id}`, { name: "Renamed", toolAuditDetail: "arguments" })).status).toBe(200);
    expect((await api(t.owner.token).get(`/api/v1/orgs/${t.org.id}`)).body).toMatchObject({ name: "Renamed", toolAuditDetail: "arguments" });
  });

  it("is declared in the OpenAPI document on the Org and UpdateOrg schemas", async () => {
    const res = await api(null).get("/api/v1/openapi.json");
    expect(res.status).toBe(200);
    const schemas = res.body.components.schemas;
    expect(schemas.ToolAuditDetail.enum).toEqual(["metadata", "arguments", "arguments_and_results"]);
    expect(JSON.stringify(schemas.Org.properties.toolAuditDetail)).toContain("ToolAuditDetail");
    expect(JSON.stringify(schemas.UpdateOrg.properties.toolAuditDetail)).toContain("ToolAuditDetail");
  });
});
