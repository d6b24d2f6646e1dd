import type { Icon } from "@/lib/connectors/mcp-fields";
import { UriTemplate } from "@modelcontextprotocol/server";
import { logger } from "@/lib/log";
import type { CallerView, SnapshotConnector } from "@/lib/mcp/visibility/snapshot-types";
import { buildKnowledgeGraph } from "@/lib/knowledge-graph/derive-static-graph";
import { renderGraphMarkdown } from "@/lib/knowledge-graph/render-graph-markdown";
import { isServableStoredUri, storedResourceContent } from "@/lib/resources/stored-resource-content";
import { isReservedUri, isReservedUriTemplate } from "@/lib/resources/stored-resource-rules";
import { normalizeResourceUri } from "@/lib/resources/uri-normalization";
import { appResourceUri } from "@/lib/connectors/mcp-fields";
import type { CatalogTemplate } from "@/lib/connectors/upstream-catalog";

/**
 * The MCP resources one caller gets on /mcp/<serverId> (seed 004), computed from the same
 * CallerView as its tools and initialize instructions: resources of a connector the caller
 * cannot use are never candidates, so reading one of their URIs answers exactly like a URI
 * that never existed. Pure: the transport maps `read() === null` to its not-found error.
 */

export interface ResourceListing {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  /** Always set for the platform's own and stored resources; as the upstream lists it otherwise. */
  mimeType?: string;
  /** An upstream's own fields, as it listed them (lib/connectors/upstream-catalog.ts). */
  size?: number;
  annotations?: Record<string, unknown>;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
}

export type TemplateListing = CatalogTemplate;

export interface ResourceContents {
  contents: Array<{ uri: string; mimeType: string; text: string }>;
}


export interface ResourceCatalog {
  /** Every published resource, in a stable order. */
  list(): ResourceListing[];
  /** The upstreams' resource templates this caller may use (a template two connectors claim is withheld). */
  templates(): TemplateListing[];
  /** The platform's or stored resource published under `uri` (compared after normalization), or null. */
  read(uri: string): ResourceContents | null;
  /**
   * The connector whose upstream serves `uri`: it lists the URI, or the URI matches exactly one
   * published template (and no other resource claims it). Null: not an upstream's.
   */
  upstreamOf(uri: string): { connector: SnapshotConnector; uri: string } | null;
  /** The connector owning the published template `uriTemplate` (completion/complete), or null. */
  templateOwner(uriTemplate: string): SnapshotConnector | null;
}

interface Entry extends ResourceListing {
  /** Lazy: the knowledge graph is rendered only when it is read. Absent: the upstream serves it. */
  text?: () => string;
  upstream?: SnapshotConnector;
  /** Readable, not listed: the `ui://` app a visible tool names that its upstream does not list. */
  unlisted?: true;
}

/** The reserved URIs, exactly as seed 004 "What is published" spells them. */
export const platformUris = {
  instructions: (serverId: string) => `anythingmcp://server/${serverId}/instructions`,
  connectorInstructions: (serverId: string, connectorId: string) => `anythingmcp://server/${serverId}/connector/${connectorId}/instructions`,
  knowledgeGraph: (serverId: string) => `anythingmcp://server/${serverId}/knowledge-graph`,
};

const MARKDOWN = "text/markdown";

function once(compute: () => string): () => string {
  let value: string | undefined;
  return () => (value ??= compute());
}

function platformEntries(view: CallerView, instructions: string): Entry[] {
  const { server, workspace } = view.snapshot;
  const entries: Entry[] = [];
  if (instructions.length > 0) {
    entries.push({
      uri: platformUris.instructions(server.id),
      name: "Server instructions",
      description: `How to use the ${server.name} server: its own instructions, then those of each connector you can use, then the applied workspace skills. The same text as the initialize instructions.`,
      mimeType: MARKDOWN,
      text: () => instructions,
    });
  }
  for (const c of view.connectors) {
    const text = c.instructions;
    if (!text?.trim()) continue;
    entries.push({
      uri: platformUris.connectorInstructions(server.id, c.id),
      name: `${c.name} instructions`,
      description: `Setup and usage instructions of the ${c.name} connector.`,
      mimeType: MARKDOWN,
      text: () => text,
    });
  }
  if (workspace.knowledgeGraphEnabled) {
    entries.push({
      uri: platformUris.knowledgeGraph(server.id),
      name: "Knowledge graph",
      description: "Entities and relations of the connectors you can use on this server, and the tools that take or return them.",
      mimeType: MARKDOWN,
      text: once(() => renderGraphMarkdown(buildKnowledgeGraph(view.connectors))),
    });
  }
  return entries;
}

function storedEntries(connectors: SnapshotConnector[]): Entry[] {
  const entries: Entry[] = [];
  for (const c of connectors) {
    for (const row of c.storedResources) {
      // Rows that reached the table around the API's validation are skipped at serving time.
      if (!isServableStoredUri(row.uri)) continue;
      const { text, mimeType } = storedResourceContent(row);
      entries.push({ uri: row.uri, name: row.name, ...(row.description ? { description: row.description } : {}), mimeType, text: () => text });
    }
  }
  return entries;
}

/**
 * The upstreams' own resources (issue 12 point 2), published beside the stored ones under the
 * same rules. One in the reserved scheme is dropped, as a stored row is: otherwise an upstream
 * could stand in for the platform's own resources, or withhold them by the duplicate rule.
 */
function upstreamEntries(connectors: SnapshotConnector[]): Entry[] {
  return connectors.flatMap((c) => [...c.upstream.resources.filter((r) => !isReservedUri(r.uri)).map((r) => ({ ...r, upstream: c })), ...appEntries(c)]);
}

/**
 * The MCP Apps (issue 25 point 2) of the connector's tools the caller sees whose `ui://`
 * resource the upstream serves without listing it: readable through that connector, under
 * the same duplicate rule as listed URIs (an app URI two connectors claim is read from neither).
 */
function appEntries(c: SnapshotConnector): Entry[] {
  const listed = new Set(c.upstream.resources.map((r) => normalizeResourceUri(r.uri)));
  const named = new Map<string, string>();
  for (const tool of c.tools) {
    const uri = appResourceUri(tool.meta);
    if (uri && !listed.has(normalizeResourceUri(uri))) named.set(normalizeResourceUri(uri), uri);
  }
  return [...named.values()].map((uri) => ({ uri, name: uri, upstream: c, unlisted: true as const }));
}

interface TemplateEntry {
  listing: TemplateListing;
  template: UriTemplate;
  connector: SnapshotConnector;
}

/** Templates by URI template; one claimed by two connectors is published by neither (as for URIs). */
function uniqueTemplates(connectors: SnapshotConnector[], serverId: string): TemplateEntry[] {
  const claims = new Map<string, TemplateEntry[]>();
  for (const c of connectors) {
    for (const t of c.upstream.resourceTemplates) {
      if (isReservedUriTemplate(t.uriTemplate)) continue; // the platform's scheme, as for resources
      let template: UriTemplate;
      try {
        template = new UriTemplate(t.uriTemplate);
      } catch {
        continue; // not a template we can match: its URIs could not be routed
      }
      const list = claims.get(t.uriTemplate) ?? [];
      list.push({ listing: t, template, connector: c });
      claims.set(t.uriTemplate, list);
    }
  }
  return [...claims.entries()].flatMap(([uriTemplate, claimants]) => {
    if (claimants.length === 1) return claimants;
    logger.warn({ serverId, uriTemplate }, `Duplicate resource template ${uriTemplate}: ${claimants.length} connectors claim it, so none of them is published`);
    return [];
  });
}

/**
 * Indexes entries by normalized URI. A URI claimed more than once is published by none of
 * its claimants (silently picking one would let one connector's content stand in for
 * another's) and is logged once per build.
 */
function indexUnique(entries: Entry[], serverId: string): Map<string, Entry> {
  const claims = new Map<string, Entry[]>();
  for (const e of entries) {
    const normalized = normalizeResourceUri(e.uri);
    const list = claims.get(normalized);
    if (list) list.push(e);
    else claims.set(normalized, [e]);
  }
  const unique = new Map<string, Entry>();
  for (const [normalized, claimants] of claims) {
    if (claimants.length === 1) unique.set(normalized, claimants[0]);
    else {
      logger.warn(
        { serverId, uri: normalized, claimants: claimants.map((c) => c.uri) },
        `Duplicate resource URI ${normalized}: ${claimants.length} resources claim it, so none of them is published`,
      );
    }
  }
  return unique;
}

/**
 * The resources this caller gets on the view's server. `instructions` must be
 * composeInstructions(view), computed once by the caller, so the instructions resource and
 * the initialize response are the same bytes.
 */
export function buildResourceCatalog(view: CallerView, instructions: string): ResourceCatalog {
  const entries = [...platformEntries(view, instructions), ...storedEntries(view.connectors), ...upstreamEntries(view.connectors)];
  const byUri = indexUnique(entries, view.snapshot.server.id);
  const withheld = new Set(entries.map((e) => normalizeResourceUri(e.uri)).filter((u) => !byUri.has(u)));
  const published = entries.filter((e) => !e.unlisted && byUri.get(normalizeResourceUri(e.uri)) === e);
  // Listed as computed once: the catalog is shared by every request of its callers' class;
  // an upstream's resource with every field it listed (issue 25 point 1).
  const listing = published.map(({ text: _text, upstream: _upstream, unlisted: _unlisted, ...fields }) => Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== "")) as unknown as ResourceListing);
  const templates = uniqueTemplates(view.connectors, view.snapshot.server.id);
  const templateListing = templates.map((t) => t.listing);
  return {
    list: () => listing,
    templates: () => templateListing,
    read(uri) {
      const entry = byUri.get(normalizeResourceUri(uri));
      return entry?.text ? { contents: [{ uri: entry.uri, mimeType: entry.mimeType!, text: entry.text() }] } : null;
    },
    upstreamOf(uri) {
      // The reserved scheme is the platform's alone, whatever an upstream template would match.
      if (isReservedUri(uri)) return null;
      const normalized = normalizeResourceUri(uri);
      const entry = byUri.get(normalized);
      if (entry) return entry.upstream ? { connector: entry.upstream, uri: entry.uri } : null;
      // A duplicate URI withheld above is withheld from the templates too.
      if (withheld.has(normalized)) return null;
      const matching = templates.filter((t) => t.template.match(uri) !== null);
      return matching.length === 1 ? { connector: matching[0].connector, uri } : null;
    },
    templateOwner: (uriTemplate) => templates.find((t) => t.listing.uriTemplate === uriTemplate)?.connector ?? null,
  };
}
