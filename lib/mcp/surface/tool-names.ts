import { createHash } from "node:crypto";

/** MCP clients reject longer tool names; several cap at 64. */
export const MAX_TOOL_NAME_LENGTH = 64;

interface NamedTool {
  connectorSlug: string;
  name: string;
}

/**
 * The names clients see for a server's tools, in input order. A name used by one connector
 * only is kept; a name several connectors share is prefixed with each one's slug
 * (`crm_get_customer`). Anything longer than 64 characters is cut and given a short hash of
 * the full name, so two long names never collapse into one.
 */
export function exposedToolNames(tools: NamedTool[]): string[] {
  const candidates = intendedToolNames(tools);
  const taken = new Set<string>();
  return tools.map((t, i) => {
    let candidate = candidates[i];
    // A prefixed name may equal another connector's plain name; disambiguate deterministically.
    for (let n = 2; taken.has(candidate); n++) candidate = fitLength(`${prefixed(t)}_${n}`);
    taken.add(candidate);
    return candidate;
  });
}

/**
 * The name each tool is meant to have before two equal ones are told apart: its own, or on a
 * clash between connectors `<slug>_<name>` (the slug's `-` written `_`). Two equal intended
 * names are what a rename must not bring about (lib/servers/override-collisions.ts).
 */
export function intendedToolNames(tools: NamedTool[]): string[] {
  const owners = new Map<string, Set<string>>();
  for (const t of tools) owners.set(t.name, (owners.get(t.name) ?? new Set()).add(t.connectorSlug));
  return tools.map((t) => fitLength((owners.get(t.name)?.size ?? 0) > 1 ? prefixed(t) : t.name));
}

function prefixed(t: NamedTool): string {
  return `${t.connectorSlug.replace(/-/g, "_")}_${t.name}`;
}

function fitLength(name: string): string {
  if (name.length <= MAX_TOOL_NAME_LENGTH) return name;
  const hash = createHash("sha256").update(name).digest("hex").slice(0, 8);
  return `${name.slice(0, MAX_TOOL_NAME_LENGTH - 9)}_${hash}`;
}
