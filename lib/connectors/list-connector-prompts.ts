import type { Caller } from "@/lib/auth/caller";
import { db } from "@/lib/db/client";
import { orgsManagedBy } from "@/lib/tenancy/scopes";
import { asCatalog } from "@/lib/connectors/upstream-catalog";

/** An `mcp` connector with the prompts its upstream offers, as the role editor lists them. */
export interface ConnectorPrompts {
  id: string;
  name: string;
  type: "mcp";
  tools: Array<{ name: string; description: string }>;
}

/**
 * The prompts of the organization's `mcp` connectors (those offering any), for choosing a
 * role's prompt whitelist. Only for callers who manage the organization (in the query).
 */
export async function listConnectorPrompts(caller: Caller, orgId: string): Promise<ConnectorPrompts[]> {
  const rows = await db().connector.findMany({
    where: { orgId, type: "mcp", org: orgsManagedBy(caller) },
    orderBy: [{ name: "asc" }, { id: "asc" }],
    take: 200,
    select: { id: true, name: true, upstreamCatalog: true },
  });
  return rows
    .map((c) => ({ id: c.id, name: c.name, type: "mcp" as const, tools: asCatalog(c.upstreamCatalog).prompts.map((p) => ({ name: p.name, description: p.description ?? p.title ?? "" })) }))
    .filter((c) => c.tools.length > 0);
}
