import { describe, expect, it } from "vitest";
import { callerFromBearer } from "@/lib/auth/resolve-bearer";
import { db } from "@/lib/db/client";
import { callTool } from "@/lib/connectors/pipeline/call-tool";
import { resolveCallerView } from "@/lib/mcp/visibility/resolve-view";
import { runShutdownHooks } from "@/lib/ops/shutdown";
import { flushUsage } from "@/lib/usage/flush-usage";
import { usageBuffer } from "@/lib/usage/usage-buffer";
import { api } from "@/tests/helpers/api";
import { createTenant } from "@/tests/helpers/factories";
import { startHttpApi } from "@/tests/helpers/http-api-stub";

/**
 * How long usage is kept and that it is not lost on a clean stop: rows older than
 * USAGE_RETENTION_DAYS go (hourly, per instance); the counts buffered when SIGTERM arrives are
 * written by the shutdown hook.
 */

const HOUR_MS = 3_600_000;

function row(orgId: string, workspaceId: string, hoursAgo: number) {
  const now = Date.now();
  return { orgId, workspaceId, serverId: "s", connectorId: "c", tool: "t", userId: "", hour: new Date(now - (now % HOUR_MS) - hoursAgo * HOUR_MS), calls: 1, latencyBuckets: [1] };
}

describe("usage retention and shutdown", () => {
  it("deletes hourly rows past USAGE_RETENTION_DAYS and keeps the rest", async () => {
    const t = await createTenant();
    // 10 days (default 90) so rows of a few days either side of it are enough.
    process.env.USAGE_RETENTION_DAYS = "10";
    try {
      await db().usageBucket.createMany({ data: [row(t.org.id, t.workspace.id, 24 * 11), row(t.org.id, t.workspace.id, 24 * 9)] });
      usageBuffer().lastPruneAt = 0;
      await flushUsage();
      const kept = await db().usageBucket.findMany({ where: { orgId: t.org.id }, select: { hour: true } });
      expect(kept).toHaveLength(1);
      expect(Date.now() - kept[0].hour.getTime()).toBeLessThan(10 * 24 * HOUR_MS);
    } finally {
      delete process.env.USAGE_RETENTION_DAYS;
    }
  });

  it("the shutdown hook writes the counts still buffered", async () => {
    const t = await createTenant();
    const upstream = await startHttpApi();
    upstream.route("GET", "/ping", (_req, res) => res.writeHead(200).end("pong"));
    try {
      const connector = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
        name: "P",
        type: "http",
        config: { baseUrl: upstream.origin },
        tools: [{ name: "ping", request: { method: "GET", path: "/ping" } }],
      });
      const server = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "S", connectorIds: [connector.body.id] });
      const caller = (await callerFromBearer(t.member.token))!;
      const view = (await resolveCallerView(caller, server.body.id))!;
      await callTool({ caller, view, tool: view.toolsByExposedName.get("ping")!, args: {} });
      expect(await db().usageBucket.count({ where: { orgId: t.org.id } })).toBe(0);
      await runShutdownHooks();
      expect(await db().usageBucket.findMany({ where: { orgId: t.org.id }, select: { tool: true, calls: true } })).toEqual([{ tool: "ping", calls: 1 }]);
    } finally {
      await upstream.close();
    }
  });
});
