import type { FieldError } from "@/lib/errors";
import type { ToolOverrideItem } from "@/lib/servers/tool-override-schemas";
import { intendedToolNames } from "@/lib/mcp/surface/tool-names";

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
  const byName = new Map<string, Owner[]>();
  for (const tool of tools) {
    const found = index.get(`${tool.connectorId}\u0000${tool.name}`);
    if (found?.item.hidden) continue;
    const name = found?.item.name ?? tool.name;
    const entry = { tool, renamedAt: found?.item.name !== undefined ? found.i : null };
    byName.set(name, [...(byName.get(name) ?? []), entry]);
  }
  const errors = collisionsAmong(byName);
  if (errors.length > 0) return errors;
  // A rename may also take the name the clash rule gives two other tools (`<slug>_<name>`).
  const served = [...byName.entries()].flatMap(([name, owners]) => owners.map((o) => ({ ...o, name })));
  const intended = intendedToolNames(served.map((o) => ({ connectorSlug: o.tool.connectorSlug, name: o.name })));
  const byIntended = new Map<string, Owner[]>();
  served.forEach((o, i) => byIntended.set(intended[i], [...(byIntended.get(intended[i]) ?? []), o]));
  return collisionsAmong(byIntended);
}

type Owner = { tool: ServerTool; renamedAt: number | null };

/** A name two tools would share, at least one of them by a rename: refused at the rename. */
function collisionsAmong(byName: Map<string, Owner[]>): FieldError[] {
  const errors: FieldError[] = [];
  for (const [name, owners] of byName) {
    if (owners.length < 2 || owners.every((o) => o.renamedAt === null)) continue;
    const renamed = owners.find((o) => o.renamedAt !== null)!;
    const other = owners.find((o) => o !== renamed)!;
    errors.push({
      path: `items.${renamed.renamedAt}.name`,
      message: `The name "${name}" of ${label(renamed.tool)} collides with ${label(other.tool)}${why(other, name)}.`,
    });
  }
  return errors;
}

function why(other: Owner, name: string): string {
  if (other.renamedAt !== null) return ` (renamed "${name}" too)`;
  // The clash rule's name: another connector has a tool of the same name.
  return other.tool.name === name ? "" : ` (published as "${name}": another connector has a tool "${other.tool.name}" too)`;
}

function label(tool: ServerTool): string {
  return `${tool.connectorSlug}/${tool.name}`;
}
