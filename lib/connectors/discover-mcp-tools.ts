import type { Icon } from "@/lib/connectors/mcp-fields";
import {
  closeUpstream,
  createUpstreamClient,
  createUpstreamTransport,
  DEFAULT_UPSTREAM_TIMEOUT_MS,
  type McpUpstream,
} from "@/lib/connectors/open-upstream";
import { type EraFallback, eraFallback, refusalText, refusesModernPath } from "@/lib/connectors/runtime/era-fallback";
import { RELAYED_CAPABILITIES } from "@/lib/connectors/runtime/call-flight";
import { TOOL_NAME_PATTERN, TOOL_TITLE_MAX_LENGTH } from "@/lib/connectors/schemas";
import { describeUpstreamError } from "@/lib/connectors/describe-upstream-error";
import { logger } from "@/lib/log";
import { discoverCatalog, type UpstreamCatalog } from "@/lib/connectors/upstream-catalog";
import { jsonDeeperThan } from "@/lib/schemas/common";
import { droppedFields, keptJson } from "@/lib/connectors/mcp-fields";

/**
 * Our platform as an MCP client of an upstream server (connectors of type `mcp`): tool
 * discovery for creation and reload, over the connector's era and transport (open-upstream.ts).
 */

export interface DiscoveredTool {
  name: string;
  /** The upstream's `title` (2025-06-18 on), republished as it is; null: none. */
  title: string | null;
  description: string;
  inputSchema: Record<string, unknown>;
  /** The MCP fields kept as the upstream sent them (lib/connectors/mcp-fields.ts); null: none or over the limits. */
  outputSchema: Record<string, unknown> | null;
  annotations: Record<string, unknown> | null;
  icons: Icon[] | null;
  execution: Record<string, unknown> | null;
  /** The tool's `_meta` (an MCP App's `ui.resourceUri` among it). */
  meta: Record<string, unknown> | null;
}

export interface McpDiscovery {
  protocolVersion: string | null;
  tools: DiscoveredTool[];
  /** Upstream tool names we cannot publish (invalid or duplicate names, schemas nested too deeply, past the tool cap). */
  skipped: string[];
  /** Prompts, resources and resource templates (lib/connectors/upstream-catalog.ts). */
  catalog: UpstreamCatalog;
  /** Set when the upstream answered `server/discover` but refused the rest of 2026-07-28, so discovery used `initialize`. */
  eraFallback?: EraFallback;
}

/** The upstream could not be reached or did not speak MCP; the message holds no secret. */
export class UpstreamUnreachableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UpstreamUnreachableError";
  }
}

/** Tools kept per connector, as for http connectors; the rest are skipped. */
export const MAX_DISCOVERED_TOOLS = 2000;
/** Longest tool description kept (longer ones are cut), as for http connectors. */
const MAX_DESCRIPTION_CHARS = 20_000;
/** Names listed in `skipped` (the audit record); past it, one entry counts the rest. */
const MAX_SKIPPED_NAMES = 100;

/**
 * Connects to the upstream and lists all of its tools (every page), within `timeoutMs`.
 * Throws UpstreamUnreachableError when the server is down, slow, or not an MCP server.
 */
export async function discoverMcpTools(upstream: McpUpstream, { timeoutMs = DEFAULT_UPSTREAM_TIMEOUT_MS } = {}): Promise<McpDiscovery> {
  try {
    return await discoverOnce(upstream, timeoutMs);
  } catch (e) {
    const auto = (upstream.protocolEra ?? "auto") === "auto" && (upstream.transport ?? "streamable-http") === "streamable-http";
    if (!auto || upstream.fellBack || !refusesModernPath(e)) throw new UpstreamUnreachableError(describeUpstreamError(e, upstream.headers));
    // The 2026-07-28 path answered server/discover and refused the rest: `initialize`, said on the connector.
    const found = await discoverOnce({ ...upstream, fellBack: true }, timeoutMs).catch((again: unknown) => {
      throw new UpstreamUnreachableError(describeUpstreamError(again, upstream.headers));
    });
    return { ...found, eraFallback: eraFallback(refusalText(e, describeUpstreamError(e, upstream.headers))) };
  }
}

/** One discovery; throws what the SDK threw. */
async function discoverOnce(upstream: McpUpstream, timeoutMs: number): Promise<McpDiscovery> {
  const abort = new AbortController();
  const client = createUpstreamClient(timeoutMs, upstream);
  // The capabilities pooled connections declare (relay-to-flights.ts): an upstream that offers
  // some tools only to clients that can answer sampling or elicitation (the MCP reference
  // "everything" server) lists them to discovery as it will serve them to calls.
  client.registerCapabilities(RELAYED_CAPABILITIES);
  const transport = createUpstreamTransport(upstream, abort.signal);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abort.abort();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    const work = (async () => {
      await client.connect(transport, { timeout: timeoutMs, signal: abort.signal });
      const { tools } = await client.listTools(undefined, { timeout: timeoutMs, signal: abort.signal, cacheMode: "bypass" });
      const catalog = await discoverCatalog(client, { timeout: timeoutMs, signal: abort.signal }, upstream.url);
      return { protocolVersion: client.getNegotiatedProtocolVersion() ?? null, ...publishableTools(tools), catalog };
    })();
    work.catch(() => undefined); // the deadline may win the race; never leave a rejection unhandled
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
    await closeUpstream(client, transport);
  }
}

type ListedTool = { name: string; title?: string; description?: string; inputSchema: Record<string, unknown> } & Record<string, unknown>;

/**
 * Keeps the tools we can publish under their own name (and store), at most
 * MAX_DISCOVERED_TOOLS of them with descriptions cut to MAX_DESCRIPTION_CHARS; reports the
 * others (a bounded list: an upstream decides how many tools it lists).
 */
function publishableTools(tools: ListedTool[]): { tools: DiscoveredTool[]; skipped: string[] } {
  const kept = new Map<string, DiscoveredTool>();
  const skippedNames: string[] = [];
  for (const tool of tools) {
    const unusable = !TOOL_NAME_PATTERN.test(tool.name) || kept.has(tool.name) || jsonDeeperThan(tool.inputSchema);
    if (unusable || kept.size >= MAX_DISCOVERED_TOOLS) {
      skippedNames.push(String(tool.name).slice(0, 200));
      continue;
    }
    const description = (tool.description ?? "").slice(0, MAX_DESCRIPTION_CHARS);
    const title = typeof tool.title === "string" && tool.title.trim() ? tool.title.trim().slice(0, TOOL_TITLE_MAX_LENGTH) : null;
    kept.set(tool.name, { name: tool.name, title, description, inputSchema: { ...tool.inputSchema, type: "object" }, ...toolFields(tool) });
  }
  const skipped =
    skippedNames.length > MAX_SKIPPED_NAMES
      ? [...skippedNames.slice(0, MAX_SKIPPED_NAMES), `… and ${skippedNames.length - MAX_SKIPPED_NAMES} more`]
      : skippedNames;
  if (skipped.length > 0) logger.warn({ skipped }, "upstream MCP tools skipped: invalid or duplicate names, input schemas nested too deeply, or too many tools");
  return { tools: [...kept.values()], skipped };
}

/** The tool's optional MCP fields as sent; one over the limits is left out and logged (the tool stays). */
function toolFields(tool: ListedTool): Pick<DiscoveredTool, "outputSchema" | "annotations" | "icons" | "execution" | "meta"> {
  const kept = { outputSchema: keptJson(tool.outputSchema), annotations: keptJson(tool.annotations), icons: keptJson(tool.icons, "array"), execution: keptJson(tool.execution), _meta: keptJson(tool._meta) };
  const dropped = droppedFields(tool, kept, Object.keys(kept));
  if (dropped.length > 0) logger.warn({ tool: String(tool.name).slice(0, 200), dropped }, "upstream MCP tool fields left out: larger than 64 KiB or nested too deeply");
  const { _meta, ...rest } = kept;
  return { ...rest, meta: _meta ?? null, outputSchema: kept.outputSchema ?? null, annotations: kept.annotations ?? null, icons: kept.icons ?? null, execution: kept.execution ?? null } as Pick<DiscoveredTool, "outputSchema" | "annotations" | "icons" | "execution" | "meta">;
}
