import type { FieldError } from "@/lib/errors";
import type { ToolOverrideItem } from "@/lib/servers/tool-override-schemas";

interface ServerTool {
  connectorId: string;
  connectorSlug: string;
  /** The connector's own tool name. */
  name: string;
}

/**
 * Names two tools of the server would both be published under once `items` apply (issue 26:
 * "two exposed names may never collide"). A clash a rename or an un-hide brings about is
 * refused, naming both tools; two connectors that already shared a tool name without any
 * override keep being settled by the clash rule (their slugs prefix them).
 */
export function overrideCollisions(tools: ServerTool[], items: ToolOverrideItem[]): FieldError[] {
  const index = new Map(items.map((item, i) => [`${item.connectorId}\u0000${item.tool}`, { item, i }]));
  const byName = new Map<string, { tool: ServerTool; renamedAt: number | null }[]>();
  for (const tool of tools) {
    const found = index.get(`${tool.connectorId}\u0000${tool.name}`);
    if (found?.item.hidden) continue;
    const name = found?.item.name ?? tool.name;
    const entry = { tool, renamedAt: found?.item.name !== undefined ? found.i : null };
    byName.set(name, [...(byName.get(name) ?? []), entry]);
  }
  const errors: FieldError[] = [];
  for (const [name, owners] of byName) {
    if (owners.length < 2 || owners.every((o) => o.renamedAt === null)) continue;
    const renamed = owners.find((o) => o.renamedAt !== null)!;
    const other = owners.find((o) => o !== renamed)!;
    errors.push({
      path: `items.${renamed.renamedAt}.name`,
      message: `The name "${name}" of ${label(renamed.tool)} collides with ${label(other.tool)}${other.renamedAt !== null ? ` (renamed "${name}" too)` : ""}.`,
    });
  }
  return errors;
}

function label(tool: ServerTool): string {
  return `${tool.connectorSlug}/${tool.name}`;
}
