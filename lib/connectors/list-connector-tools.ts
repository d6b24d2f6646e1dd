import type { Prisma } from "@/lib/generated/prisma/client";
import type { Caller } from "@/lib/auth/caller";
import { db } from "@/lib/db/client";
import { type Page, pageOf } from "@/lib/api/pagination";
import { type ListArgs, listOrder, searchIn } from "@/lib/api/list-query";
import { orgsManagedBy } from "@/lib/tenancy/scopes";
import { findManagedConnector } from "@/lib/connectors/managed-connector";
import type { ToolListQuery } from "@/lib/connectors/schemas";
import { approvalView, type ToolApprovalView } from "@/lib/connectors/connector-view";

export interface ListedToolView {
  id: string;
  name: string;
  title: string | null;
  description: string;
  inputSchema: Record<string, unknown>;
  request: { method: string; path: string } | null;
  annotations: Record<string, unknown> | null;
  outputSchema: Record<string, unknown> | null;
  response: { select: string } | null;
  approval: ToolApprovalView | null;
  position: number;
}

const toolSelect = { id: true, name: true, title: true, description: true, inputSchema: true, request: true, annotations: true, outputSchema: true, response: true, approvalState: true, approvedDefinition: true, position: true } as const satisfies Prisma.ToolSelect;

/**
 * One page of a connector's tools (searched in names, titles and descriptions), in the connector's own
 * order unless sorted. A connector the caller does not manage is 404 like a missing one.
 */
export async function listConnectorTools(caller: Caller, connectorId: string, query: ListArgs<ToolListQuery>): Promise<Page<ListedToolView>> {
  const connector = await findManagedConnector(db(), caller, connectorId);
  const where: Prisma.ToolWhereInput = {
    connectorId: connector.id,
    orgId: connector.orgId,
    connector: { org: orgsManagedBy(caller) },
    ...searchIn(query.q, (m) => [{ name: m }, { title: m }, { description: m }]),
  };
  const orderBy = listOrder(query, [{ position: "asc" }, { id: "asc" }]) as Prisma.ToolOrderByWithRelationInput[];
  const page = await pageOf(query, (args) => db().tool.findMany({ where, orderBy, select: toolSelect, ...args }));
  return {
    items: page.items.map(({ approvalState, approvedDefinition, ...t }) => ({
      ...t,
      approval: approvalView(approvalState, approvedDefinition),
      inputSchema: t.inputSchema as Record<string, unknown>,
      request: (t.request ?? null) as ListedToolView["request"],
      annotations: (t.annotations ?? null) as ListedToolView["annotations"],
      outputSchema: (t.outputSchema ?? null) as ListedToolView["outputSchema"],
      response: (t.response ?? null) as ListedToolView["response"],
    })),
    nextCursor: page.nextCursor,
  };
}
