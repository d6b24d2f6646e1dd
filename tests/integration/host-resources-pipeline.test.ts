import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { handleHostResourcesList, handleHostResourcesRead, type HostResourcesContext } from "@/lib/host-resources";
import { renderMetrics } from "@/lib/ops/metrics";
import { flushUsage } from "@/lib/usage/flush-usage";
import { createTenant, makeConnector, type Tenant } from "@/tests/helpers/factories";
import { upload, useTempFilesDir } from "@/tests/helpers/files";

/**
 * Issue 22 point 1, host-resource requests: an upstream reading or listing the caller's files
 * runs through the call pipeline like every call in flight — the audit step (one row, URI and
 * size, never content), the metrics step (/api/metrics counts them by operation and outcome),
 * the limits step (the workspace and connector's request budget; a refusal is audited and
 * counted like any other answer) — and, by design, no usage step. Real files, real PostgreSQL.
 */

beforeAll(() => {
  useTempFilesDir();
});
afterEach(() => {
  vi.unstubAllEnvs();
});

async function scenario(): Promise<{ t: Tenant; ctx: HostResourcesContext; uri: string; fileId: string }> {
  const t = await createTenant();
  const connector = await makeConnector(t, { name: "Upstream", type: "mcp", config: { url: "http://127.0.0.1:1/mcp" } });
  const res = await upload(t.member.token, t.workspace.id, { bytes: "region,revenue\neu,10\n", name: "sales.csv" });
  expect(res.status).toBe(201);
  const ctx = { orgId: t.org.id, workspaceId: t.workspace.id, userId: t.member.user.id, connectorId: connector.id };
  return { t, ctx, uri: res.body.uri as string, fileId: res.body.id as string };
}

/** The counter /api/metrics serves for host-resource requests, by operation and outcome. */
async function served(operation: "read" | "list", outcome: "ok" | "error"): Promise<number> {
  const { body } = await renderMetrics();
  const line = body.split("\n").find((l) => l.startsWith(`switchboard_host_resource_requests_total{operation="${operation}",outcome="${outcome}"}`));
  return line ? Number(line.split(" ").pop()) : 0;
}

async function counts() {
  return { readOk: await served("read", "ok"), readError: await served("read", "error"), listOk: await served("list", "ok"), listError: await served("list", "error") };
}

describe("host-resource requests go through the call pipeline", () => {
  it("metrics: /api/metrics counts reads and lists by outcome, a refusal of the budget as an error", async () => {
    // A budget of 3 a minute: the fourth request is refused within the test.
    vi.stubEnv("HOST_RESOURCES_RATE_LIMIT", "3");
    vi.stubEnv("HOST_RESOURCES_RATE_WINDOW_SEC", "60");
    const { ctx, uri } = await scenario();
    const before = await counts();
    await handleHostResourcesRead(ctx, { uri });
    await handleHostResourcesRead(ctx, { uri: "files://nope" }).catch(() => undefined);
    await handleHostResourcesList(ctx, {});
    await expect(handleHostResourcesList(ctx, {})).rejects.toMatchObject({ code: -32004 });
    expect(await counts()).toEqual({ readOk: before.readOk + 1, readError: before.readError + 1, listOk: before.listOk + 1, listError: before.listError + 1 });
  });

  it("audit and limits: the refused request's row says -32004; every row says how long the request took; no content", async () => {
    // A budget of 1 a minute: the second read is refused.
    vi.stubEnv("HOST_RESOURCES_RATE_LIMIT", "1");
    vi.stubEnv("HOST_RESOURCES_RATE_WINDOW_SEC", "60");
    const { t, ctx, uri, fileId } = await scenario();
    await handleHostResourcesRead(ctx, { uri });
    await expect(handleHostResourcesRead(ctx, { uri })).rejects.toMatchObject({ code: -32004, data: { retryAfterMs: expect.any(Number) } });
    const events = await db().auditEvent.findMany({ where: { orgId: t.org.id, action: "host_resources.read" }, orderBy: { createdAt: "asc" } });
    expect(events.map((e) => [e.actorId, e.targetId, e.data])).toEqual([
      [t.member.user.id, fileId, { connectorId: ctx.connectorId, uri, size: 21, mimeType: "text/csv", as: "text", outcome: "ok", durationMs: expect.any(Number) }],
      [t.member.user.id, null, { connectorId: ctx.connectorId, uri, outcome: "error", code: -32004, durationMs: expect.any(Number) }],
    ]);
    expect(JSON.stringify(events)).not.toContain("revenue");
  });

  it("usage: a host-resource request is no row of the usage table (it happens inside a tool call already counted, for no MCP server)", async () => {
    const { t, ctx, uri } = await scenario();
    await handleHostResourcesRead(ctx, { uri });
    await handleHostResourcesList(ctx, {});
    await flushUsage();
    expect(await db().usageBucket.count({ where: { orgId: t.org.id } })).toBe(0);
  });
});
