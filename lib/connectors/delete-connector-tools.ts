import type { Caller } from "@/lib/auth/caller";
import { db } from "@/lib/db/client";
import { ConflictError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import * as configVersion from "@/lib/config-version/config-version";
import type { BulkResult } from "@/lib/api/bulk";
import { lockManagedConnector } from "@/lib/connectors/managed-connector";
import { queueRowWrite } from "@/lib/db/queue-row-writes";
import { assertCredentialMay } from "@/lib/permissions/guards";

const MCP_TOOLS =
  "The tools of an mcp connector are discovered from the upstream server; remove them there and reload, or leave them out of an MCP role.";

/**
 * Removes some tools of an http connector: the same change as PATCH /connectors/{id} with the
 * tool set minus these, done as one write under the connector's lock. (Tool ids are renewed
 * whenever the set is replaced, so deleting one by one through the whole-set PATCH would make
 * every id after the first stale.) Ids that are not this connector's tools are reported as
 * not found; the connector's change is audited once, naming the tools removed.
 */
export async function deleteConnectorTools(caller: Caller, connectorId: string, ids: string[]): Promise<BulkResult> {
  assertCredentialMay(caller, "connectors.manage");
  const wanted = [...new Set(ids)];
  return queueRowWrite("connectors", connectorId, () =>
    db().$transaction(async (tx) => {
      const connector = await lockManagedConnector(tx, caller, connectorId);
      if (connector.type === "mcp") throw new ConflictError(MCP_TOOLS);
      const found = await tx.tool.findMany({ where: { connectorId: connector.id, orgId: connector.orgId, id: { in: wanted } }, select: { id: true, name: true } });
      if (found.length > 0) {
        await tx.tool.deleteMany({ where: { connectorId: connector.id, orgId: connector.orgId, id: { in: found.map((t) => t.id) } } });
        // The connector's version (its ETag, updatedAt) moves with its tool set.
        await tx.connector.updateMany({ where: { id: connector.id, orgId: connector.orgId }, data: { updatedAt: new Date() } });
        await configVersion.bump(tx, connector.orgId);
        await recordAuditEvent(
          caller,
          { orgId: connector.orgId, action: "connector.update", targetType: "connector", targetId: connector.id, data: { fields: ["tools"], removedTools: found.map((t) => t.name) } },
          tx,
        );
      }
      const deleted = new Set(found.map((t) => t.id));
      const results: BulkResult["results"] = wanted.map((id) =>
        deleted.has(id) ? { id, ok: true } : { id, ok: false, error: { code: "not_found", message: "No such tool on this connector." } },
      );
      return { results, done: deleted.size, failed: wanted.length - deleted.size };
    }),
  );
}
