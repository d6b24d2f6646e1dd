import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { pruneAuditEvents } from "@/lib/audit/prune-audit-events";
import { api } from "@/tests/helpers/api";
import { createHttpConnector, createMcpServer, createTenant, type Tenant } from "@/tests/helpers/factories";

/** The audit log names what it speaks of, shows tool calls inline, exports a filter, and forgets by retention. */

/** A tool call as the runtime records it (lib/connectors/pipeline/audit-call.ts), at a given time. */
async function toolCallEvent(t: Tenant, at: Date, data: { serverId: string; connectorId: string; tool: string; outcome?: string }) {
  await db().auditEvent.create({
    data: {
      orgId: t.org.id,
      workspaceId: t.workspace.id,
      actorType: "api_key",
      actorId: t.member.user.id,
      action: "tool.call",
      targetType: "connector",
      targetId: data.connectorId,
      data: { ...data, status: data.outcome ? "finished" : "started", durationMs: data.outcome ? 12 : undefined },
      createdAt: at,
    },
  });
}

async function scenario() {
  const t = await createTenant();
  const connectorId = await createHttpConnector(t, "Billing API", ["get_invoice", "refund"]);
  const serverId = await createMcpServer(t, [connectorId], "Finance desk");
  const role = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/roles`, { name: "Short-lived", tools: [] });
  expect((await api(t.admin.token).delete(`/api/v1/roles/${role.body.id}`)).status).toBe(204);
  await toolCallEvent(t, new Date(), { serverId, connectorId, tool: "get_invoice", outcome: "ok" });
  await toolCallEvent(t, new Date(), { serverId, connectorId, tool: "refund", outcome: "isError" });
  await toolCallEvent(t, new Date(), { serverId, connectorId, tool: "refund" });
  return { t, connectorId, serverId, roleId: role.body.id as string };
}

describe("audit log names and tool calls", () => {
  it("names the actor, workspace, target, server and connector; a deleted object is \"(deleted)\"", async () => {
    const { t, roleId } = await scenario();
    const res = await api(t.admin.token).get(`/api/v1/orgs/${t.org.id}/audit`);
    expect(res.status).toBe(200);
    const call = res.body.items.find((e: { action: string; toolCall: { tool: string } | null }) => e.action === "tool.call" && e.toolCall?.tool === "get_invoice");
    expect(call.names).toEqual({ actor: `member <${t.member.user.email}>`, workspace: "Main", target: "Billing API", server: "Finance desk", connector: "Billing API" });
    expect(call.toolCall).toEqual({ tool: "get_invoice", outcome: "ok", durationMs: 12 });

    const deleted = res.body.items.filter((e: { targetId: string }) => e.targetId === roleId);
    expect(deleted.map((e: { action: string }) => e.action).sort()).toEqual(["role.create", "role.delete"]);
    for (const e of deleted) {
      expect(e.names.target).toBe("(deleted)");
      expect(e.names.actor).toBe(`admin <${t.admin.user.email}>`);
      expect(e.toolCall).toBeNull();
    }
  });

  it("filters tool calls by tool, outcome and server", async () => {
    const { t, serverId } = await scenario();
    const base = `/api/v1/orgs/${t.org.id}/audit`;
    const refunds = await api(t.admin.token).get(`${base}?tool=refund`);
    expect(refunds.body.items.map((e: { toolCall: { outcome: string } }) => e.toolCall.outcome).sort()).toEqual(["isError", "started"]);
    const failed = await api(t.admin.token).get(`${base}?outcome=isError&serverId=${serverId}`);
    expect(failed.body.items).toHaveLength(1);
    expect(failed.body.items[0].toolCall.tool).toBe("refund");
    const otherServer = await api(t.admin.token).get(`${base}?serverId=srv_missing`);
    expect(otherServer.body.items).toEqual([]);
  });
});

describe("audit export", () => {
  it("JSON Lines: every event of the filter, one per line, as the list shows it", async () => {
    const { t } = await scenario();
    const res = await api(t.admin.token).get(`/api/v1/orgs/${t.org.id}/audit/export?format=jsonl&action=tool.call`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/x-ndjson");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="audit-.+\.jsonl"/);
    const lines = res.text.trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(lines.map((e) => e.toolCall.tool).sort()).toEqual(["get_invoice", "refund", "refund"]);
    const listed = await api(t.admin.token).get(`/api/v1/orgs/${t.org.id}/audit?action=tool.call`);
    expect(lines).toEqual(listed.body.items);
  });

  it("CSV: a header, then a row per event with names beside ids; spreadsheet formulas are defused", async () => {
    const { t, serverId, connectorId } = await scenario();
    await toolCallEvent(t, new Date(), { serverId, connectorId, tool: "=HYPERLINK(\"x\")", outcome: "ok" });
    const res = await api(t.admin.token).get(`/api/v1/orgs/${t.org.id}/audit/export?format=csv&outcome=ok`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/csv");
    const rows = res.text.trimEnd().split("\r\n");
    expect(rows[0]).toBe("createdAt,actorType,actorId,actor,action,targetType,targetId,target,workspaceId,workspace,server,connector,tool,outcome,durationMs,data,traceId");
    expect(rows).toHaveLength(3);
    expect(rows[1]).toContain(`,member <${t.member.user.email}>,tool.call,connector,${connectorId},Billing API,${t.workspace.id},Main,Finance desk,Billing API,"'=HYPERLINK(""x"")",ok,12,`);
    expect(rows[2]).toContain(",get_invoice,ok,12,");
  });

  it("another organization's export is 404 and a member's is 403 or 404, nothing streamed", async () => {
    const { t } = await scenario();
    const other = await createTenant();
    const foreign = await api(other.admin.token).get(`/api/v1/orgs/${t.org.id}/audit/export?format=csv`);
    expect(foreign.status).toBe(404);
    expect(foreign.headers.get("content-type")).toContain("problem+json");
    const member = await api(t.member.token).get(`/api/v1/orgs/${t.org.id}/audit/export`);
    expect([403, 404]).toContain(member.status);
    const bad = await api(t.admin.token).get(`/api/v1/orgs/${t.org.id}/audit/export?format=xml`);
    expect(bad.status).toBe(422);
  });
});

describe("audit retention", () => {
  it("only an owner sets it; a prune deletes older events of that organization only, and logs nothing for others", async () => {
    const kept = await createTenant();
    const pruned = await createTenant();
    const connector = await createHttpConnector(pruned, "Old", ["ping"]);
    const server = await createMcpServer(pruned, [connector]);
    const longAgo = new Date(Date.now() - 40 * 24 * 60 * 60 * 1000);
    await toolCallEvent(pruned, longAgo, { serverId: server, connectorId: connector, tool: "ping", outcome: "ok" });
    await toolCallEvent(pruned, new Date(Date.now() - 5 * 24 * 60 * 60 * 1000), { serverId: server, connectorId: connector, tool: "ping", outcome: "error" });
    await toolCallEvent(kept, longAgo, { serverId: server, connectorId: connector, tool: "ping", outcome: "ok" });

    const byAdmin = await api(pruned.admin.token).patch(`/api/v1/orgs/${pruned.org.id}`, { auditRetentionDays: 30 });
    expect(byAdmin.status).toBe(403);
    const byOwner = await api(pruned.owner.token).patch(`/api/v1/orgs/${pruned.org.id}`, { auditRetentionDays: 30 });
    expect(byOwner.status).toBe(200);
    expect(byOwner.body.auditRetentionDays).toBe(30);
    expect((await api(kept.owner.token).get(`/api/v1/orgs/${kept.org.id}`)).body.auditRetentionDays).toBeNull();

    const result = await pruneAuditEvents();
    expect(result.deleted[pruned.org.id]).toBe(1);
    expect(result.deleted[kept.org.id]).toBeUndefined();

    const left = await api(pruned.admin.token).get(`/api/v1/orgs/${pruned.org.id}/audit?action=tool.call`);
    expect(left.body.items.map((e: { toolCall: { outcome: string } }) => e.toolCall.outcome)).toEqual(["error"]);
    // The change itself is in the log, with from and to.
    const change = await api(pruned.admin.token).get(`/api/v1/orgs/${pruned.org.id}/audit?action=org.update`);
    expect(change.body.items[0].data.auditRetentionDays).toEqual({ from: null, to: 30 });
    const untouched = await api(kept.admin.token).get(`/api/v1/orgs/${kept.org.id}/audit?action=tool.call`);
    expect(untouched.body.items).toHaveLength(1);

    const invalid = await api(pruned.owner.token).patch(`/api/v1/orgs/${pruned.org.id}`, { auditRetentionDays: 0 });
    expect(invalid.status).toBe(422);
  });
});
