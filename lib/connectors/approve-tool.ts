import { Prisma } from "@/lib/generated/prisma/client";
import type { Caller } from "@/lib/auth/caller";
import { db } from "@/lib/db/client";
import { NotFoundError } from "@/lib/errors";
import { assertCredentialMay } from "@/lib/permissions/guards";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import * as configVersion from "@/lib/config-version/config-version";
import { queueRowWrite } from "@/lib/db/queue-row-writes";
import { lockManagedConnector } from "@/lib/connectors/managed-connector";
import { approvalView, type ConnectorToolView } from "@/lib/connectors/connector-view";
import type { ToolAnnotations, ToolResponseShape } from "@/lib/connectors/tool-fields";
import type { ToolRequest } from "@/lib/connectors/schemas";

/**
 * `POST /connectors/{connectorId}/tools/{tool}/approve` (issue 26 point 2): the tool's
 * current upstream definition becomes the approved one and is served from the next request
 * on; a new tool starts being served. Approving a tool that waits for nothing changes nothing.
 * The audit event says what was approved.
 */
export async function approveTool(caller: Caller, connectorId: string, toolName: string): Promise<ConnectorToolView> {
  assertCredentialMay(caller, "connectors.manage");
  return queueRowWrite("connectors", connectorId, () =>
    db().$transaction(async (tx) => {
      const connector = await lockManagedConnector(tx, caller, connectorId);
      const tool = await tx.tool.findFirst({ where: { connectorId: connector.id, orgId: connector.orgId, name: toolName }, select: { id: true, approvalState: true, approvedDefinition: true } });
      if (!tool) throw new NotFoundError("tool");
      if (tool.approvalState) {
        await tx.tool.updateMany({ where: { id: tool.id, orgId: connector.orgId }, data: { approvalState: null, approvedDefinition: Prisma.DbNull } });
        await configVersion.bump(tx, connector.orgId);
        await recordAuditEvent(caller, {
          orgId: connector.orgId,
          action: "connector.tool.approve",
          targetType: "connector",
          targetId: connector.id,
          data: { tool: toolName, change: tool.approvalState, ...(tool.approvalState === "changed" ? { replaced: tool.approvedDefinition } : {}) },
        }, tx);
      }
      const row = await tx.tool.findFirstOrThrow({
        where: { id: tool.id, orgId: connector.orgId },
        select: { name: true, title: true, description: true, inputSchema: true, request: true, annotations: true, outputSchema: true, response: true, approvalState: true, approvedDefinition: true },
      });
      return {
        name: row.name,
        title: row.title,
        description: row.description,
        inputSchema: row.inputSchema as Record<string, unknown>,
        request: (row.request ?? null) as ToolRequest | null,
        annotations: (row.annotations ?? null) as ToolAnnotations | null,
        outputSchema: (row.outputSchema ?? null) as Record<string, unknown> | null,
        response: (row.response ?? null) as ToolResponseShape | null,
        approval: approvalView(row.approvalState, row.approvedDefinition),
      };
    }),
  );
}
