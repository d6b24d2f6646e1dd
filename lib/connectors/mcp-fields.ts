import { jsonDeeperThan } from "@/lib/schemas/common";

/**
 * The optional fields of an upstream's tools, resources, templates and prompts, kept as the
 * upstream sent them (issue 25 point 1) within the product's limits (docs/mcp-gateway.md,
 * "What passes through"): a JSON field larger than MAX_FIELD_BYTES or nested deeper than the
 * platform's JSON depth is left out (and logged by the caller), never cut: a half schema or a
 * half `_meta` would mean something the upstream did not say.
 */

/** An MCP icon, as the upstream sent it (its shape is the upstream's word, not checked here). */
export type Icon = { src: string; mimeType?: string; sizes?: string[]; theme?: "light" | "dark" };

/** Largest serialised size of one kept JSON field (`outputSchema`, `annotations`, `icons`, `execution`, `_meta`). */
export const MAX_FIELD_BYTES = 64 * 1024;

/** Longest kept text (descriptions, titles of resources and prompts), as for tool descriptions. */
export const MAX_TEXT = 20_000;

/** The value when it is JSON we keep: an object (or, for `icons`, an array) within the limits; else undefined. */
export function keptJson(value: unknown, kind: "object" | "array" = "object"): unknown {
  if (value === null || typeof value !== "object") return undefined;
  if (Array.isArray(value) !== (kind === "array")) return undefined;
  if (jsonDeeperThan(value)) return undefined;
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch {
    return undefined;
  }
  return Buffer.byteLength(text) <= MAX_FIELD_BYTES ? (JSON.parse(text) as unknown) : undefined;
}

/** A non-empty string cut to MAX_TEXT; undefined otherwise. */
export function keptText(value: unknown): string | undefined {
  return typeof value === "string" && value ? value.slice(0, MAX_TEXT) : undefined;
}

/** The fields every listed item may carry beside its own: `icons`, `annotations` (not prompts) and `_meta`. */
export function keptExtras(item: { icons?: unknown; annotations?: unknown; _meta?: unknown }, withAnnotations: boolean): Record<string, unknown> {
  const icons = keptJson(item.icons, "array");
  const annotations = withAnnotations ? keptJson(item.annotations) : undefined;
  const meta = keptJson(item._meta);
  return { ...(icons !== undefined ? { icons } : {}), ...(annotations !== undefined ? { annotations } : {}), ...(meta !== undefined ? { _meta: meta } : {}) };
}

/** Which of the optional fields the upstream sent were left out (for the discovery log). */
export function droppedFields(item: Record<string, unknown>, kept: Record<string, unknown>, fields: string[]): string[] {
  return fields.filter((f) => item[f] !== undefined && item[f] !== null && kept[f] === undefined);
}

/** The `_meta` keys of an MCP App view: a tool's `ui` (and the older flat `ui/resourceUri`). */
const UI_META_KEYS = ["ui", "ui/resourceUri"];

/** The `ui://` resource a tool's `_meta` names as its app (MCP Apps), or null. */
export function appResourceUri(meta: unknown): string | null {
  if (!meta || typeof meta !== "object") return null;
  const m = meta as Record<string, unknown>;
  const ui = m.ui as { resourceUri?: unknown } | undefined;
  const uri = typeof ui?.resourceUri === "string" ? ui.resourceUri : m["ui/resourceUri"];
  return typeof uri === "string" && uri.startsWith("ui://") ? uri : null;
}

/** `_meta` without the app view keys (endpoints that publish no resources); undefined when nothing is left. */
export function withoutAppView(meta: Record<string, unknown>): Record<string, unknown> | undefined {
  const rest = Object.fromEntries(Object.entries(meta).filter(([k]) => !UI_META_KEYS.includes(k)));
  return Object.keys(rest).length > 0 ? rest : undefined;
}

/** The result `_meta` key (2026-07-28) naming the server that answered: on the gateway's wire, the gateway. */
const SERVER_INFO_META_KEY = "io.modelcontextprotocol/serverInfo";

/**
 * An upstream's result with its own server identity taken out of `_meta`, so the endpoint's
 * server stamps its own (the SDK adds it only when absent); everything else stays as sent.
 */
export function withoutUpstreamServerInfo<T>(result: T): T {
  const meta = (result as { _meta?: Record<string, unknown> } | null)?._meta;
  if (!meta || typeof meta !== "object" || !(SERVER_INFO_META_KEY in meta)) return result;
  const { [SERVER_INFO_META_KEY]: _upstream, ...rest } = meta;
  return { ...result, _meta: rest } as T;
}
