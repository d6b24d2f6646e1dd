import { Prisma } from "@/lib/generated/prisma/client";
import type { HttpToolInput } from "@/lib/connectors/schemas";
import type { DiscoveredTool } from "@/lib/connectors/discover-mcp-tools";

/** Rows of the `tools` table for a connector, in the order given (kept as `position`). */

export type ToolRowInput = Omit<Prisma.ToolCreateManyInput, "connectorId">;

const DEFAULT_INPUT_SCHEMA = { type: "object" } as const;

export function httpToolRows(orgId: string, tools: HttpToolInput[]): ToolRowInput[] {
  return tools.map((t, position) => ({
    orgId,
    name: t.name,
    title: t.title || null,
    description: t.description ?? "",
    inputSchema: (t.inputSchema ?? DEFAULT_INPUT_SCHEMA) as Prisma.InputJsonValue,
    request: { method: t.request.method, path: t.request.path },
    // Absent: the column stays null (an http tool is then served with its method's annotations).
    ...(t.annotations ? { annotations: t.annotations } : {}),
    ...(t.outputSchema ? { outputSchema: t.outputSchema as Prisma.InputJsonValue } : {}),
    ...(t.response ? { response: t.response } : {}),
    position,
  }));
}

export function mcpToolRows(orgId: string, tools: DiscoveredTool[]): ToolRowInput[] {
  return tools.map((t, position) => ({
    orgId,
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: t.inputSchema as Prisma.InputJsonValue,
    outputSchema: json(t.outputSchema),
    annotations: json(t.annotations),
    icons: json(t.icons),
    execution: json(t.execution),
    meta: json(t.meta),
    position,
  }));
}

/** A kept field, or SQL NULL (not JSON null) when the upstream sent none. */
const json = (value: unknown) => (value == null ? Prisma.DbNull : (value as Prisma.InputJsonValue));

/** Replaces every tool of a connector (of organization `orgId`) with `rows`, inside the caller's transaction. */
export async function replaceTools(
  tx: Pick<Prisma.TransactionClient, "tool">,
  connector: { id: string; orgId: string },
  rows: ToolRowInput[],
): Promise<void> {
  await tx.tool.deleteMany({ where: { connectorId: connector.id, orgId: connector.orgId } });
  if (rows.length > 0) await tx.tool.createMany({ data: rows.map((r) => ({ ...r, orgId: connector.orgId, connectorId: connector.id })) });
}
