import type { CallerAccess } from "@/lib/mcp/visibility/load-access";
import { whitelistKey } from "@/lib/mcp/visibility/load-access";
import { capViewCatalog } from "@/lib/mcp/visibility/cap-view-catalog";
import type { CallerView, ServerSnapshot, SnapshotConnector } from "@/lib/mcp/visibility/snapshot-types";

/**
 * The connectors of a server this caller can use: those with at least one tool or prompt
 * that is assigned (it is in the snapshot) and allowed by the caller's access — seed 004's
 * "a connector contributes when any of its tools survives", extended to prompts (issue 12:
 * "a connector contributes when any of its tools or prompts survives"). Tools, prompts,
 * initialize instructions, connector-scoped skills, resources (stored and upstream) and the
 * knowledge graph all derive from this one set (seed 004 "Who sees what").
 */
export function visibleConnectors(snapshot: ServerSnapshot, access: CallerAccess): CallerView {
  const connectors: SnapshotConnector[] = [];
  for (const connector of snapshot.connectors) {
    if (access.kind === "all") {
      if (connector.tools.length > 0 || connector.prompts.length > 0) connectors.push(connector);
      continue;
    }
    const tools = connector.tools.filter((t) => access.allowed.has(whitelistKey(connector.id, t.name)));
    const prompts = connector.prompts.filter((p) => access.prompts.has(whitelistKey(connector.id, p.name)));
    if (tools.length > 0 || prompts.length > 0) connectors.push({ ...connector, tools, prompts });
  }
  const toolsByExposedName = new Map(connectors.flatMap((c) => c.tools.map((t) => [t.exposedName, t] as const)));
  return { snapshot, connectors: capViewCatalog(connectors, snapshot.server.id), toolsByExposedName, access };
}

/**
 * The server's composed instructions for this caller: its own instructions, then those of
 * each usable connector, then the applied workspace skills (connector-scoped ones only for
 * usable connectors). Served byte-for-byte as initialize's `instructions` and as the
 * `anythingmcp://server/<id>/instructions` resource.
 */
export function composeInstructions(view: CallerView): string {
  const { snapshot } = view;
  const visible = new Set(view.connectors.map((c) => c.id));
  const sections: string[] = [];
  const own = snapshot.server.instructions?.trim();
  if (own) sections.push(own);
  for (const c of view.connectors) {
    const text = c.instructions?.trim();
    if (text) sections.push(`## ${c.name}\n\n${text}`);
  }
  for (const skill of snapshot.skills) {
    if (skill.connectorId && !visible.has(skill.connectorId)) continue;
    const text = skill.content.trim();
    if (text) sections.push(`## Skill: ${skill.name}\n\n${text}`);
  }
  return sections.join("\n\n");
}
