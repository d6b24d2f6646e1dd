import type { Caller } from "@/lib/auth/caller";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { db } from "@/lib/db/client";
import { ValidationError } from "@/lib/errors";
import { findManagedConnector } from "@/lib/connectors/managed-connector";
import type { ConnectorHealth as HealthRow } from "@/lib/generated/prisma/client";
import type { ConnectorHealth, ConnectorProbe, HealthStatus } from "@/lib/connector-health/schemas";
import { assertCredentialMay } from "@/lib/permissions/guards";

/**
 * A connector's health: the latest success and failure of its real tool calls (written by
 * the usage flush, lib/usage) and of "Test connection", and the http probe request.
 */

type Stored = Pick<HealthRow, "lastSuccessAt" | "lastFailureAt">;

/** `failing` when the latest outcome is a failure; `unknown` before any outcome. */
export function healthStatus(row: Stored | null | undefined): HealthStatus {
  if (!row || (!row.lastSuccessAt && !row.lastFailureAt)) return "unknown";
  if (!row.lastSuccessAt) return "failing";
  return row.lastFailureAt && row.lastFailureAt > row.lastSuccessAt ? "failing" : "healthy";
}

export function toHealthView(connectorId: string, row: HealthRow | null): ConnectorHealth {
  const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
  return {
    connectorId,
    status: healthStatus(row),
    lastSuccessAt: iso(row?.lastSuccessAt),
    lastLatencyMs: row?.lastLatencyMs ?? null,
    lastFailureAt: iso(row?.lastFailureAt),
    lastFailureMessage: row?.lastFailureMessage ?? null,
    lastTest: row?.lastTestAt ? { at: row.lastTestAt.toISOString(), ok: row.lastTestOk ?? false, message: row.lastTestMessage ?? "" } : null,
    probe: row?.probeMethod && row.probePath ? { method: row.probeMethod as ConnectorProbe["method"], path: row.probePath } : null,
  };
}

export async function getConnectorHealth(caller: Caller, connectorId: string): Promise<ConnectorHealth> {
  const connector = await findManagedConnector(db(), caller, connectorId);
  const row = await db().connectorHealth.findFirst({ where: { connectorId: connector.id, orgId: connector.orgId } });
  return toHealthView(connector.id, row);
}

/** Health of every connector of an org whose page the caller may see (for status badges). */
export async function orgConnectorHealth(orgId: string, connectorIds: string[]): Promise<Map<string, ConnectorHealth>> {
  const rows = await db().connectorHealth.findMany({ where: { orgId, connectorId: { in: connectorIds } } });
  const byId = new Map(rows.map((r) => [r.connectorId, r]));
  return new Map(connectorIds.map((id) => [id, toHealthView(id, byId.get(id) ?? null)]));
}

/** Stores the request "Test connection" sends to an http connector. */
export async function setConnectorProbe(caller: Caller, connectorId: string, probe: ConnectorProbe): Promise<ConnectorHealth> {
  assertCredentialMay(caller, "connectors.manage");
  const connector = await findManagedConnector(db(), caller, connectorId);
  if (connector.type !== "http") throw new ValidationError([{ path: "method", message: "Only an http connector has a probe request; an mcp connector is tested by connecting and listing its tools." }]);
  const data = { probeMethod: probe.method, probePath: probe.path };
  await db().$transaction(async (tx) => {
    await tx.connectorHealth.upsert({ where: { connectorId: connector.id, orgId: connector.orgId }, create: { connectorId: connector.id, orgId: connector.orgId, ...data }, update: data });
    await recordAuditEvent(caller, { orgId: connector.orgId, action: "connector.probe.update", targetType: "connector", targetId: connector.id, data }, tx);
  });
  return getConnectorHealth(caller, connector.id);
}

/** The stored probe of a connector found in the caller's scope, or the default `GET /`. */
export async function storedProbe(connector: { id: string; orgId: string }): Promise<ConnectorProbe> {
  const row = await db().connectorHealth.findFirst({ where: { connectorId: connector.id, orgId: connector.orgId }, select: { probeMethod: true, probePath: true } });
  if (!row?.probeMethod || !row.probePath) return { method: "GET", path: "/" };
  return { method: row.probeMethod as ConnectorProbe["method"], path: row.probePath };
}

