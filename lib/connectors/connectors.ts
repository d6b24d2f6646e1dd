import { Prisma } from "@/lib/generated/prisma/client";
import type { Caller } from "@/lib/auth/caller";
import { db } from "@/lib/db/client";
import { NotFoundError, ValidationError, type FieldError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import * as configVersion from "@/lib/config-version/config-version";
import { type Page, pageOf } from "@/lib/api/pagination";
import { listOrder, searchIn } from "@/lib/api/list-query";
import { orgsManagedBy } from "@/lib/tenancy/scopes";
import { assertOrgManaged, lockManagedConnector, managedConnectorWhere } from "@/lib/connectors/managed-connector";
import { assertIfMatch, type IfMatch } from "@/lib/api/if-match";
import { asProtocolEra, asTransportKind, connectorSelect, type ConnectorView, publicConfig, toConnectorView } from "@/lib/connectors/connector-view";
import { applyHeaderChanges, openHeaders, sealHeaders } from "@/lib/connectors/secret-headers";
import { httpToolRows, replaceTools } from "@/lib/connectors/tool-rows";
import { type ConnectorListQuery, type HeaderChanges, SecretHeaders, SSE_ERA_MESSAGE, type UpdateConnectorBody } from "@/lib/connectors/schemas";
import { eraFitsTransport } from "@/lib/connectors/upstream-protocol";
import { queueRowWrite } from "@/lib/db/queue-row-writes";
import { type BulkResult, runBulk } from "@/lib/api/bulk";
import { assertCredentialMay } from "@/lib/permissions/guards";
import { changeConnectorAuth, changeConnectorOrigin } from "@/lib/connectors/upstream-auth/change-auth";

/** The auth columns of a PATCH; a changed client or scopes asks every connection to connect again. */
async function authChange(tx: Prisma.TransactionClient, current: { id: string; orgId: string; type: "http" | "mcp" }, auth: NonNullable<UpdateConnectorBody["auth"]>) {
  const row = await tx.connector.findFirstOrThrow({ where: { id: current.id, orgId: current.orgId }, select: { auth: true, authSecret: true } });
  return changeConnectorAuth(tx, { ...current, ...row }, auth);
}

/** A new upstream URL on another origin asks every connection to connect again (tokens stay with their host). */
function originChange(tx: Prisma.TransactionClient, current: { id: string; orgId: string; type: "http" | "mcp"; config: Prisma.JsonValue }, input: UpdateConnectorBody) {
  const key = current.type === "http" ? "baseUrl" : "url";
  return changeConnectorOrigin(tx, current, publicConfig(current.type, current.config)[key], input.config?.[key]);
}

/** Reading, changing and deleting connectors (creation: create-connector.ts). */

/** The connectors of an organization the caller manages; `q` searches names and slugs. */
export async function listConnectors(caller: Caller, orgId: string, query: Partial<ConnectorListQuery> & { limit: number }): Promise<Page<ConnectorView>> {
  await assertOrgManaged(db(), caller, orgId);
  const where: Prisma.ConnectorWhereInput = { orgId, org: orgsManagedBy(caller), ...searchIn(query.q, (m) => [{ name: m }, { slug: m }]) };
  const orderBy = listOrder(query, [{ id: "asc" }]) as Prisma.ConnectorOrderByWithRelationInput[];
  const rows = await pageOf(query, (args) => db().connector.findMany({ where, orderBy, select: connectorSelect, ...args }));
  return { items: rows.items.map(toConnectorView), nextCursor: rows.nextCursor };
}

export async function getConnector(caller: Caller, connectorId: string): Promise<ConnectorView> {
  const row = await db().connector.findFirst({ where: managedConnectorWhere(caller, connectorId), select: connectorSelect });
  if (!row) throw new NotFoundError("connector");
  return toConnectorView(row);
}

/**
 * Changes a connector. `config.headers` replaces the whole secret set (`{}` clears it),
 * `config.headerChanges` sets or removes some and keeps the rest;
 * `tools` replaces every tool of an http connector (mcp tools come from `reload`).
 */
export async function updateConnector(caller: Caller, connectorId: string, input: UpdateConnectorBody, ifMatch?: IfMatch): Promise<ConnectorView> {
  assertCredentialMay(caller, "connectors.manage");
  return queueRowWrite("connectors", connectorId, () =>
    db().$transaction(async (tx) => {
      const current = await lockedConnectorRow(tx, caller, connectorId, ifMatch);
      assertFitsType(current, input);
      const authData = input.auth ? await authChange(tx, current, input.auth) : {};
      const originData = await originChange(tx, current, input);
      const { count } = await tx.connector.updateMany({
        where: managedConnectorWhere(caller, connectorId),
        data: { ...updateData(current, input), ...originData, ...authData },
      });
      if (count === 0) throw new NotFoundError("connector");
      if (input.tools) await replaceTools(tx, { id: connectorId, orgId: current.orgId }, httpToolRows(current.orgId, input.tools));
      await configVersion.bump(tx, current.orgId);
      await recordAuditEvent(
        caller,
        { orgId: current.orgId, action: "connector.update", targetType: "connector", targetId: connectorId, data: { fields: changedFields(input) } },
        tx,
      );
      return toConnectorView(await tx.connector.findFirstOrThrow({ where: managedConnectorWhere(caller, connectorId), select: connectorSelect }));
    }),
  );
}

/** The connector as it is now, under its row lock, checked against the write's If-Match. */
async function lockedConnectorRow(tx: Prisma.TransactionClient, caller: Caller, connectorId: string, ifMatch: IfMatch | undefined) {
  await lockManagedConnector(tx, caller, connectorId);
  const row = await tx.connector.findFirst({ where: managedConnectorWhere(caller, connectorId), select: connectorSelect });
  if (!row) throw new NotFoundError("connector");
  assertIfMatch(ifMatch, toConnectorView(row));
  return row;
}

function assertFitsType(current: { type: "http" | "mcp"; protocolEra: string; transport: string }, input: UpdateConnectorBody): void {
  const { type } = current;
  const errors: FieldError[] = [];
  if (type === "http" && input.config?.url !== undefined) errors.push({ path: "config.url", message: "An http connector has a baseUrl, not a url." });
  for (const key of ["protocolEra", "transport", "toolApproval"] as const) {
    if (type === "http" && input.config?.[key] !== undefined) errors.push({ path: `config.${key}`, message: `Only an mcp connector has a ${key}.` });
  }
  const era = input.config?.protocolEra ?? asProtocolEra(current.protocolEra);
  if (type === "mcp" && !eraFitsTransport(era, input.config?.transport ?? asTransportKind(current.transport))) errors.push({ path: "config.protocolEra", message: SSE_ERA_MESSAGE });
  if (type === "mcp" && input.config?.baseUrl !== undefined) errors.push({ path: "config.baseUrl", message: "An mcp connector has a url, not a baseUrl." });
  if (type === "mcp" && input.tools !== undefined) {
    errors.push({ path: "tools", message: "The tools of an mcp connector are discovered from the upstream server; use POST /connectors/{connectorId}/reload." });
  }
  if (errors.length > 0) throw new ValidationError(errors);
}

function updateData(
  current: { type: "http" | "mcp"; config: Prisma.JsonValue; secretHeaders: string | null },
  input: UpdateConnectorBody,
): Prisma.ConnectorUpdateManyMutationInput {
  const { type, config: storedConfig } = current;
  const data: Prisma.ConnectorUpdateManyMutationInput = {};
  if (input.name !== undefined) data.name = input.name;
  if (input.instructions !== undefined) data.instructions = input.instructions;
  const { baseUrl, url, headers, headerChanges, protocolEra, transport, toolApproval } = input.config ?? {};
  if (baseUrl !== undefined || url !== undefined) data.config = { ...publicConfig(type, storedConfig), ...(type === "http" ? { baseUrl } : { url }) };
  if (headers !== undefined) data.secretHeaders = sealHeaders(headers);
  if (headerChanges !== undefined) data.secretHeaders = sealHeaders(changedHeaders(current.secretHeaders, headerChanges));
  if (protocolEra !== undefined) data.protocolEra = protocolEra;
  if (transport !== undefined) data.transport = transport;
  if (toolApproval !== undefined) data.toolApproval = toolApproval;
  // A new upstream, era or transport is tried afresh on 2026-07-28 (lib/connectors/runtime/era-fallback.ts).
  if (url !== undefined || protocolEra !== undefined || transport !== undefined) data.eraFallback = Prisma.DbNull;
  return data;
}

/** The stored set with some headers changed, checked by the same rules as a whole new set. */
function changedHeaders(stored: string | null, changes: HeaderChanges): Record<string, string> {
  const result = SecretHeaders.safeParse(applyHeaderChanges(openHeaders(stored), changes));
  if (!result.success) {
    throw new ValidationError(result.error.issues.map((i) => ({ path: ["config", "headerChanges", "set", ...i.path.map(String)].join("."), message: i.message })));
  }
  return result.data;
}

/** Field names for the audit trail (never values: headers are secrets). */
function changedFields(input: UpdateConnectorBody): string[] {
  const fields = Object.keys(input).filter((k) => k !== "config" && input[k as keyof UpdateConnectorBody] !== undefined);
  for (const key of Object.keys(input.config ?? {})) fields.push(`config.${key}`);
  return fields;
}

/** Deletes a connector with its tools, stored resources and graph. */
export async function deleteConnector(caller: Caller, connectorId: string, ifMatch?: IfMatch): Promise<void> {
  assertCredentialMay(caller, "connectors.manage");
  await queueRowWrite("connectors", connectorId, () =>
    db().$transaction(async (tx) => {
      const connector = await lockedConnectorRow(tx, caller, connectorId, ifMatch);
      const { count } = await tx.connector.deleteMany({ where: managedConnectorWhere(caller, connectorId) });
      if (count === 0) throw new NotFoundError("connector");
      await configVersion.bump(tx, connector.orgId);
      await recordAuditEvent(
        caller,
        { orgId: connector.orgId, action: "connector.delete", targetType: "connector", targetId: connectorId, data: { name: connector.name, type: connector.type } },
        tx,
      );
    }),
  );
}

/** Deletes several connectors, each exactly as `deleteConnector` (and audited on its own). */
export function deleteConnectors(caller: Caller, ids: string[]): Promise<BulkResult> {
  return runBulk(ids, (id) => deleteConnector(caller, id));
}
