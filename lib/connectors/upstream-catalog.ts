import type { Client } from "@modelcontextprotocol/client";
import { TOOL_NAME_PATTERN } from "@/lib/connectors/schemas";
import { logger } from "@/lib/log";
import { isReservedUri, isReservedUriTemplate } from "@/lib/resources/stored-resource-rules";

/**
 * What an `mcp` connector's upstream offers besides tools, found by the same discovery and
 * stored beside its tools (connectors.upstream_catalog): its prompts, its resources and
 * resource templates, and whether it takes resource subscriptions and completions (issue 12:
 * "everything an upstream MCP server offers reaches the client"). Stored, like the tools, so
 * what a server publishes is one snapshot per configuration version; reads, prompt gets and
 * completions go live through the caller's own upstream connection.
 */

export interface CatalogPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: Array<{ name: string; description?: string; required?: boolean }>;
}

export interface CatalogResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface CatalogTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface UpstreamCatalog {
  prompts: CatalogPrompt[];
  resources: CatalogResource[];
  resourceTemplates: CatalogTemplate[];
  /** The upstream declared `resources.subscribe`. */
  subscribe: boolean;
  /** The upstream declared `completions`. */
  completions: boolean;
}

export const EMPTY_CATALOG: UpstreamCatalog = { prompts: [], resources: [], resourceTemplates: [], subscribe: false, completions: false };

/** Entries kept per list, as for tools; the rest are skipped. */
const MAX_ENTRIES = 2000;
const MAX_TEXT = 20_000;
const MAX_URI = 2048;

type RequestOptions = { timeout: number; signal: AbortSignal };

/**
 * Lists the upstream's prompts, resources and templates, each only when its capability is
 * declared. An upstream that declares a list and then fails it keeps its tools: the list is
 * logged and left empty (tools are what a connector is for; the rest is extra). Resources and
 * templates in the platform's reserved `anythingmcp:` scheme are dropped (the catalog build
 * drops them too, for catalogs stored before).
 */
export async function discoverCatalog(client: Client, options: RequestOptions): Promise<UpstreamCatalog> {
  const caps = client.getServerCapabilities() ?? {};
  const request = { ...options, cacheMode: "bypass" as const };
  const [prompts, resources, resourceTemplates] = await Promise.all([
    caps.prompts ? orEmpty("prompts", () => client.listPrompts(undefined, request).then((r) => r.prompts)) : [],
    caps.resources ? orEmpty("resources", () => client.listResources(undefined, request).then((r) => r.resources)) : [],
    caps.resources ? orEmpty("resource templates", () => client.listResourceTemplates(undefined, request).then((r) => r.resourceTemplates)) : [],
  ]);
  return {
    prompts: uniqueBy(prompts.filter((p) => TOOL_NAME_PATTERN.test(p.name)), (p) => p.name).map(toPrompt),
    resources: uniqueBy(resources.filter((r) => typeof r.uri === "string" && r.uri.length <= MAX_URI && !isReservedUri(r.uri)), (r) => r.uri).map(toResource),
    resourceTemplates: uniqueBy(resourceTemplates.filter((t) => typeof t.uriTemplate === "string" && t.uriTemplate.length <= MAX_URI && !isReservedUriTemplate(t.uriTemplate)), (t) => t.uriTemplate).map(toTemplate),
    subscribe: caps.resources?.subscribe === true,
    completions: caps.completions !== undefined,
  };
}

/** The stored column as a catalog (rows written before it existed hold `{}`). */
export function asCatalog(value: unknown): UpstreamCatalog {
  const v = (value ?? {}) as Partial<UpstreamCatalog>;
  return {
    prompts: Array.isArray(v.prompts) ? v.prompts : [],
    resources: Array.isArray(v.resources) ? v.resources : [],
    resourceTemplates: Array.isArray(v.resourceTemplates) ? v.resourceTemplates : [],
    subscribe: v.subscribe === true,
    completions: v.completions === true,
  };
}

async function orEmpty<T>(what: string, list: () => Promise<T[]>): Promise<T[]> {
  try {
    return await list();
  } catch (e) {
    logger.warn({ err: e instanceof Error ? e.message.slice(0, 300) : String(e) }, `upstream MCP ${what} could not be listed; none are published`);
    return [];
  }
}

function uniqueBy<T>(items: T[], key: (item: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(key(item)) && seen.size < MAX_ENTRIES) seen.set(key(item), item);
  return [...seen.values()];
}

const text = (value: unknown): string | undefined => (typeof value === "string" && value ? value.slice(0, MAX_TEXT) : undefined);

function described(item: { name: string; title?: unknown; description?: unknown }) {
  const title = text(item.title);
  const description = text(item.description);
  return { name: String(item.name).slice(0, 200), ...(title ? { title } : {}), ...(description ? { description } : {}) };
}

function toPrompt(p: { name: string; title?: string; description?: string; arguments?: Array<{ name: string; description?: string; required?: boolean }> }): CatalogPrompt {
  const args = (p.arguments ?? []).slice(0, 100).map((a) => ({
    name: String(a.name).slice(0, 200),
    ...(text(a.description) ? { description: text(a.description) } : {}),
    ...(a.required ? { required: true } : {}),
  }));
  return { ...described(p), ...(args.length ? { arguments: args } : {}) };
}

function toResource(r: { uri: string; name: string; title?: string; description?: string; mimeType?: string }): CatalogResource {
  return { uri: r.uri, ...described(r), ...(text(r.mimeType) ? { mimeType: text(r.mimeType) } : {}) };
}

function toTemplate(t: { uriTemplate: string; name: string; title?: string; description?: string; mimeType?: string }): CatalogTemplate {
  return { uriTemplate: t.uriTemplate, ...described(t), ...(text(t.mimeType) ? { mimeType: text(t.mimeType) } : {}) };
}
