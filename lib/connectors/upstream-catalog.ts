import type { Icon } from "@/lib/connectors/mcp-fields";
import type { Client } from "@modelcontextprotocol/client";
import { TOOL_NAME_PATTERN } from "@/lib/connectors/schemas";
import { logger } from "@/lib/log";
import { setting } from "@/lib/config/settings";
import { listUpstreamPages, type ListedPages } from "@/lib/connectors/list-upstream-pages";
import { isReservedUri, isReservedUriTemplate } from "@/lib/resources/stored-resource-rules";
import { keptExtras, keptText } from "@/lib/connectors/mcp-fields";

/**
 * What an `mcp` connector's upstream offers besides tools, found by the same discovery and
 * stored beside its tools (connectors.upstream_catalog): its prompts, its resources and
 * resource templates, and whether it takes resource subscriptions and completions (issue 12:
 * "everything an upstream MCP server offers reaches the client"). Stored, like the tools, so
 * what a server publishes is one snapshot per configuration version; reads, prompt gets and
 * completions go live through the caller's own upstream connection.
 */

/** Fields every listed item may carry as the upstream sent them (lib/connectors/mcp-fields.ts). */
interface CatalogExtras {
  icons?: Icon[];
  _meta?: Record<string, unknown>;
}

export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  /** As sent: an explicit `false` is kept. */
  required?: boolean;
}

export interface CatalogPrompt extends CatalogExtras {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
}

export interface CatalogResource extends CatalogExtras {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Record<string, unknown>;
}

export interface CatalogTemplate extends CatalogExtras {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Record<string, unknown>;
}

export interface UpstreamCatalog {
  prompts: CatalogPrompt[];
  resources: CatalogResource[];
  resourceTemplates: CatalogTemplate[];
  /** The upstream declared `resources.subscribe`. */
  subscribe: boolean;
  /** The upstream declared `completions`. */
  completions: boolean;
  /** The upstream's initialize `instructions` ("" when it sent none): the connector's when its admin wrote none (load-snapshot.ts). */
  instructions: string;
}

export const EMPTY_CATALOG: UpstreamCatalog = { prompts: [], resources: [], resourceTemplates: [], subscribe: false, completions: false, instructions: "" };

/** At most as long as an admin's own instructions may be (lib/schemas/common.ts `Markdown`). */
const MAX_INSTRUCTIONS = 200_000;

const MAX_URI = 2048;

type RequestOptions = { timeout: number; signal: AbortSignal };

type ListedPrompt = Parameters<typeof toPrompt>[0];
type ListedResource = Parameters<typeof toResource>[0];
type ListedTemplate = Parameters<typeof toTemplate>[0];

/**
 * Lists the upstream's prompts, resources and templates, each only when its capability is
 * declared. An upstream that declares a list and then fails it keeps its tools: the list is
 * logged and left empty (tools are what a connector is for; the rest is extra). Resources and
 * templates in the platform's reserved `anythingmcp:` scheme are dropped (the catalog build
 * drops them too, for catalogs stored before).
 *
 * At most UPSTREAM_CATALOG_MAX_ENTRIES entries are kept in all (an upstream decides how many
 * it lists; we decide how many we hold, store and publish): prompts first, then templates
 * (each stands for many URIs), then resources, each in the upstream's order, so the same
 * listing always keeps the same entries. What is dropped is logged once per discovery.
 */
export async function discoverCatalog(client: Client, options: RequestOptions, upstreamUrl = ""): Promise<UpstreamCatalog> {
  const caps = client.getServerCapabilities() ?? {};
  const cap = setting("UPSTREAM_CATALOG_MAX_ENTRIES");
  const none = { items: [], complete: true };
  const uri = (value: unknown) => (typeof value === "string" && value.length <= MAX_URI ? value : null);
  const [prompts, templates, resources] = await Promise.all([
    caps.prompts ? orEmpty("prompts", () => listUpstreamPages<ListedPrompt>(client, "prompts/list", "prompts", (p) => (TOOL_NAME_PATTERN.test(p.name) ? p.name : null), cap, options)) : none,
    caps.resources
      ? orEmpty("resource templates", () => listUpstreamPages<ListedTemplate>(client, "resources/templates/list", "resourceTemplates", (t) => (uri(t.uriTemplate) !== null && !isReservedUriTemplate(t.uriTemplate) ? t.uriTemplate : null), cap, options))
      : none,
    caps.resources ? orEmpty("resources", () => listUpstreamPages<ListedResource>(client, "resources/list", "resources", (r) => (uri(r.uri) !== null && !isReservedUri(r.uri) ? r.uri : null), cap, options)) : none,
  ]);
  const keptPrompts = prompts.items.slice(0, cap);
  const keptTemplates = templates.items.slice(0, cap - keptPrompts.length);
  const keptResources = resources.items.slice(0, cap - keptPrompts.length - keptTemplates.length);
  const dropped = { prompts: prompts.items.length - keptPrompts.length, resourceTemplates: templates.items.length - keptTemplates.length, resources: resources.items.length - keptResources.length };
  const unlisted = [prompts, templates, resources].some((l) => !l.complete);
  if (unlisted || dropped.prompts + dropped.resourceTemplates + dropped.resources > 0) {
    logger.warn(
      { upstream: hostOf(upstreamUrl), cap, kept: { prompts: keptPrompts.length, resourceTemplates: keptTemplates.length, resources: keptResources.length }, dropped, morePagesNotFetched: unlisted },
      `upstream MCP catalog capped at UPSTREAM_CATALOG_MAX_ENTRIES=${cap}: the entries past it are not stored or published`,
    );
  }
  return {
    prompts: keptPrompts.map(toPrompt),
    resources: keptResources.map(toResource),
    resourceTemplates: keptTemplates.map(toTemplate),
    subscribe: caps.resources?.subscribe === true,
    completions: caps.completions !== undefined,
    instructions: (client.getInstructions() ?? "").trim().slice(0, MAX_INSTRUCTIONS),
  };
}

/** The upstream's host for the log line (its url may carry a credential in its path or query). */
function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
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
    instructions: typeof v.instructions === "string" ? v.instructions : "",
  };
}

async function orEmpty<T>(what: string, list: () => Promise<ListedPages<T>>): Promise<ListedPages<T>> {
  try {
    return await list();
  } catch (e) {
    logger.warn({ err: e instanceof Error ? e.message.slice(0, 300) : String(e) }, `upstream MCP ${what} could not be listed; none are published`);
    return { items: [], complete: true };
  }
}

const text = keptText;

function described(item: { name: string; title?: unknown; description?: unknown }) {
  const title = text(item.title);
  const description = text(item.description);
  return { name: String(item.name).slice(0, 200), ...(title ? { title } : {}), ...(description ? { description } : {}) };
}

type Listed = { name: string; title?: string; description?: string; icons?: unknown; annotations?: unknown; _meta?: unknown; mimeType?: string };

function toPrompt(p: Listed & { arguments?: Array<{ name: string; title?: string; description?: string; required?: boolean }> }): CatalogPrompt {
  const args = (Array.isArray(p.arguments) ? p.arguments : []).slice(0, 100).map((a) => ({
    ...described(a),
    // As the upstream said it, `false` too: a client may show "optional" only when told.
    ...(typeof a.required === "boolean" ? { required: a.required } : {}),
  }));
  return { ...described(p), ...(p.arguments !== undefined ? { arguments: args } : {}), ...keptExtras(p, false) };
}

function toResource(r: Listed & { uri: string; size?: number }): CatalogResource {
  const size = typeof r.size === "number" && Number.isFinite(r.size) && r.size >= 0 ? { size: r.size } : {};
  return { uri: r.uri, ...described(r), ...(text(r.mimeType) ? { mimeType: text(r.mimeType) } : {}), ...size, ...keptExtras(r, true) };
}

function toTemplate(t: Listed & { uriTemplate: string }): CatalogTemplate {
  return { uriTemplate: t.uriTemplate, ...described(t), ...(text(t.mimeType) ? { mimeType: text(t.mimeType) } : {}), ...keptExtras(t, true) };
}
