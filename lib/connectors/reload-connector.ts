import { isDeepStrictEqual } from "node:util";
import type { Caller } from "@/lib/auth/caller";
import { db } from "@/lib/db/client";
import { AppError, NotFoundError, ValidationError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import * as configVersion from "@/lib/config-version/config-version";
import { lockManagedConnector, managedConnectorWhere } from "@/lib/connectors/managed-connector";
import { asProtocolEra, asTransportKind, connectorSelect, type ConnectorView, publicConfig, toConnectorView } from "@/lib/connectors/connector-view";
import { type McpDiscovery, UpstreamUnreachableError, discoverMcpTools } from "@/lib/connectors/discover-mcp-tools";
import type { McpUpstream } from "@/lib/connectors/open-upstream";
import { openHeaders } from "@/lib/connectors/secret-headers";
import { mcpToolRows, replaceTools, type ToolRowInput } from "@/lib/connectors/tool-rows";
import { waitingTools, withApprovalStates } from "@/lib/connectors/tool-approval";
import { queueRowWrite } from "@/lib/db/queue-row-writes";
import { Prisma } from "@/lib/generated/prisma/client";
import { assertCredentialMay } from "@/lib/permissions/guards";
import { discoveryAuth } from "@/lib/connectors/upstream-auth/discovery-auth";

/**
 * Re-discovers the tools of an `mcp` connector from its upstream and replaces the stored set.
 * When the upstream cannot be reached the connector stays exactly as it was (503).
 * `skipUnchanged`: when the tools and catalog found are those stored, nothing is written (no
 * configuration version bump, no audit event) — the upstream's list_changed path.
 */
export async function reloadConnector(caller: Caller, connectorId: string, opts: { skipUnchanged?: boolean } = {}): Promise<ConnectorView> {
  assertCredentialMay(caller, "connectors.manage");
  const connector = await db().connector.findFirst({
    where: managedConnectorWhere(caller, connectorId),
    select: { id: true, orgId: true, name: true, type: true, config: true, secretHeaders: true, protocolEra: true, transport: true, eraFallback: true },
  });
  if (!connector) throw new NotFoundError("connector");
  if (connector.type !== "mcp") {
    throw new ValidationError([{ path: "type", message: "Only mcp connectors discover their tools; edit an http connector's tools with PATCH." }]);
  }
  const url = publicConfig("mcp", connector.config).url;
  if (!url) throw new ValidationError([{ path: "config.url", message: "The connector has no upstream url." }]);
  // An OAuth connector is discovered with the reloading person's connection (issue 24 point 5).
  const authProvider = await discoveryAuth(connector, caller.kind === "user" ? caller.userId : null);
  const discovery = await discoverOrUnavailable({
    url,
    authProvider,
    headers: openHeaders(connector.secretHeaders),
    protocolEra: asProtocolEra(connector.protocolEra),
    transport: asTransportKind(connector.transport),
    // An admin's reload tries 2026-07-28 again (and clears the fallback when it now works); the
    // upstream's own list_changed path keeps the connector as it is.
    fellBack: connector.eraFallback !== null && (opts.skipUnchanged ?? false),
  });
  return queueRowWrite("connectors", connectorId, () => storeDiscovery(caller, connector, discovery, opts.skipUnchanged ?? false));
}

async function storeDiscovery(caller: Caller, connector: { id: string; orgId: string }, discovery: McpDiscovery, skipUnchanged: boolean): Promise<ConnectorView> {
  const connectorId = connector.id;
  return db().$transaction(async (tx) => {
    await lockManagedConnector(tx, caller, connectorId); // a concurrent tool-set write waits (or we wait for it)
    if (skipUnchanged && (await storedMatches(tx, caller, connector, discovery))) {
      return toConnectorView(await tx.connector.findFirstOrThrow({ where: managedConnectorWhere(caller, connectorId), select: connectorSelect }));
    }
    const { count } = await tx.connector.updateMany({
      where: managedConnectorWhere(caller, connectorId),
      data: { protocolVersion: discovery.protocolVersion, upstreamCatalog: discovery.catalog as object, ...(discovery.eraFallback ? { eraFallback: discovery.eraFallback as object } : skipUnchanged ? {} : { eraFallback: Prisma.DbNull }) },
    });
    if (count === 0) throw new NotFoundError("connector"); // deleted (or access lost) meanwhile
    const rows = await rowsAwaitingApproval(tx, connector, mcpToolRows(connector.orgId, discovery.tools));
    await replaceTools(tx, connector, rows);
    await configVersion.bump(tx, connector.orgId);
    await recordAuditEvent(
      caller,
      {
        orgId: connector.orgId,
        action: "connector.reload",
        targetType: "connector",
        targetId: connectorId,
        data: { toolCount: discovery.tools.length, promptCount: discovery.catalog.prompts.length, protocolVersion: discovery.protocolVersion, skippedTools: discovery.skipped, awaitingApproval: waitingTools(rows) },
      },
      tx,
    );
    return toConnectorView(await tx.connector.findFirstOrThrow({ where: managedConnectorWhere(caller, connectorId), select: connectorSelect }));
  });
}

type Tx = Parameters<Parameters<ReturnType<typeof db>["$transaction"]>[0]>[0];

/** The discovered rows with what waits for approval, judged against the rows stored now (lib/connectors/tool-approval.ts). */
async function rowsAwaitingApproval(tx: Tx, connector: { id: string; orgId: string }, rows: ToolRowInput[]): Promise<ToolRowInput[]> {
  const [stored, previous] = await Promise.all([
    tx.connector.findFirst({ where: { id: connector.id, orgId: connector.orgId }, select: { toolApproval: true } }),
    tx.tool.findMany({ where: { connectorId: connector.id, orgId: connector.orgId }, select: { name: true, title: true, description: true, inputSchema: true, annotations: true, approvalState: true, approvedDefinition: true } }),
  ]);
  return withApprovalStates(rows, previous, stored?.toolApproval ?? false);
}

/** Whether the stored tools, catalog and protocol version are what `discovery` found (as JSON: jsonb drops undefined). */
async function storedMatches(tx: Tx, caller: Caller, connector: { id: string; orgId: string }, discovery: McpDiscovery): Promise<boolean> {
  const stored = await tx.connector.findFirst({ where: managedConnectorWhere(caller, connector.id), select: { protocolVersion: true, upstreamCatalog: true } });
  if (!stored) return false;
  const tools = await tx.tool.findMany({
    where: { connectorId: connector.id, orgId: connector.orgId },
    orderBy: { position: "asc" },
    select: { name: true, title: true, description: true, inputSchema: true, outputSchema: true, annotations: true, icons: true, execution: true, meta: true, position: true },
  });
  // Every kept field counts: a reload that changed only a tool's annotations or its app is a change.
  const found = discovery.tools.map(({ name, title, description, inputSchema, outputSchema, annotations, icons, execution, meta }, position) => ({ name, title, description, inputSchema, outputSchema, annotations, icons, execution, meta, position }));
  const json = (v: unknown) => JSON.parse(JSON.stringify(v ?? null)) as unknown;
  return stored.protocolVersion === discovery.protocolVersion && isDeepStrictEqual(json(stored.upstreamCatalog), json(discovery.catalog)) && isDeepStrictEqual(json(tools), json(found));
}

async function discoverOrUnavailable(upstream: McpUpstream): Promise<McpDiscovery> {
  try {
    return await discoverMcpTools(upstream);
  } catch (e) {
    if (!(e instanceof UpstreamUnreachableError)) throw e;
    throw new UpstreamUnavailableError(`The upstream MCP server at config.url is unreachable: ${e.message}.`);
  }
}

/** A discovery the upstream did not answer (503): `reason` says why, the message adds that nothing changed. */
export class UpstreamUnavailableError extends AppError {
  constructor(readonly reason: string) {
    super("unavailable", `${reason} The connector was not changed.`);
  }
}
