import { HostResourcesUnavailableError, toHostResourcesError } from "./errors.js";
import {
  FIRST_REVISION_WITHOUT_HOST_RESOURCES,
  HOST_RESOURCES_EXTENSION,
  type HostResourcesCapability,
  type HostResourcesFilter,
  LIST_METHOD,
  type ListResourcesResult,
  READ_METHOD,
  type ReadResourceResult,
} from "./protocol.js";

/**
 * `host(ctx, server)`: what a tool handler needs to read the host's resources. Works with
 * servers built on the MCP TypeScript SDK v1 (`@modelcontextprotocol/sdk`: `ctx` is the
 * handler's `extra`) and v2 (`@modelcontextprotocol/server`: `ctx` is the handler's context),
 * without importing either: both are read through the few members used here.
 */

/** A request as both SDKs send it. */
interface OutboundRequest {
  method: string;
  params?: Record<string, unknown>;
}

/** Options passed through to the SDK's request (timeout in ms, cancellation). */
export interface HostRequestOptions {
  signal?: AbortSignal;
  timeout?: number;
}

/** The v1 SDK's `RequestHandlerExtra`, as far as it is used here. */
export interface V1HandlerExtra {
  sendRequest(request: OutboundRequest, resultSchema: never, options?: HostRequestOptions): Promise<unknown>;
  signal?: AbortSignal;
  requestInfo?: { headers?: Record<string, string | string[] | undefined> };
}

/** The v2 SDK's `ServerContext`, as far as it is used here. */
export interface V2HandlerContext {
  mcpReq: {
    send(request: OutboundRequest, resultSchema: never, options?: HostRequestOptions): Promise<unknown>;
    signal?: AbortSignal;
    envelope?: object;
  };
}

/** A low-level `Server` of either SDK. */
export interface ServerLike {
  getClientCapabilities(): object | undefined;
  getNegotiatedProtocolVersion?(): string | undefined;
}

/** The `Server`, or an `McpServer` (which holds it as `.server`). */
export type ServerOrMcpServer = ServerLike | { server: ServerLike };

const PROTOCOL_VERSION_META_KEY = "io.modelcontextprotocol/protocolVersion";
const CLIENT_CAPABILITIES_META_KEY = "io.modelcontextprotocol/clientCapabilities";

/** Accepts any result: the helper checks the shape itself (v1 takes a zod-like schema, v2 a Standard Schema). */
const ANY_RESULT = {
  parse: (value: unknown) => value,
  safeParse: (value: unknown) => ({ success: true as const, data: value }),
  "~standard": { version: 1 as const, vendor: "host-resources", validate: (value: unknown) => ({ value }) },
} as unknown as never;

/** The host-resources view of one connection, for one tool call. */
export class HostResources {
  /** The capability the host claimed on this connection, or null (not claimed, or a 2026-07-28+ connection). */
  readonly capability: HostResourcesCapability | null;
  /** The negotiated protocol revision, when the SDK tells it. */
  readonly protocolVersion: string | undefined;

  constructor(
    private readonly send: (request: OutboundRequest, options?: HostRequestOptions) => Promise<unknown>,
    capabilities: object | undefined,
    protocolVersion: string | undefined,
    private readonly signal?: AbortSignal,
  ) {
    this.protocolVersion = protocolVersion;
    this.capability = isHostResourcesEra(protocolVersion) ? claimedCapability(capabilities) : null;
  }

  /** `read.enabled`: ai.nimblebrain/resources/read is served on this connection. */
  get available(): boolean {
    return this.capability?.read?.enabled === true;
  }

  /** `list.enabled`: ai.nimblebrain/resources/list is served on this connection. */
  get listAvailable(): boolean {
    return this.capability?.list?.enabled === true;
  }

  /** `read.maxSize`: the largest resource a read returns, in bytes, when the host says. */
  get maxReadSize(): number | undefined {
    const size = this.capability?.read?.maxSize;
    return typeof size === "number" ? size : undefined;
  }

  /** Whether the host resolves URIs of `scheme` ("files", "files:" and "files://" alike). */
  supportsScheme(scheme: string): boolean {
    const wanted = scheme.toLowerCase().replace(/:(\/\/)?$/, "");
    return (this.capability?.schemes ?? []).some((s) => typeof s === "string" && s.toLowerCase() === wanted);
  }

  /**
   * Reads one resource. Rejects with HostResourcesUnavailableError when read is not served, and
   * with the typed error of the host's answer (HostResourceNotFoundError, …) when it fails.
   */
  async read(uri: string, options: HostRequestOptions = {}): Promise<ReadResourceResult> {
    if (!this.available) throw new HostResourcesUnavailableError("read");
    const result = await this.request(READ_METHOD, { uri }, options, uri);
    return checkReadResult(result);
  }

  /**
   * Lists what the server can read, optionally filtered (`scheme`, `mimeType`, `tags`). The
   * whole list comes back in one response: the host does not page.
   */
  async list(filter?: HostResourcesFilter, options: HostRequestOptions = {}): Promise<ListResourcesResult> {
    if (!this.listAvailable) throw new HostResourcesUnavailableError("list");
    const params = filter === undefined ? {} : { _meta: { filter } };
    return checkListResult(await this.request(LIST_METHOD, params, options));
  }

  private async request(method: string, params: Record<string, unknown>, options: HostRequestOptions, uri?: string): Promise<unknown> {
    try {
      return await this.send({ method, params }, { ...options, signal: options.signal ?? this.signal });
    } catch (e) {
      throw toHostResourcesError(e, uri);
    }
  }
}

/**
 * The host-resources view for a tool handler: `ctx` is the handler's `extra` (SDK v1) or
 * context (SDK v2), `server` the McpServer (or Server) the tool is registered on.
 */
export function host(ctx: V1HandlerExtra | V2HandlerContext, server: ServerOrMcpServer): HostResources {
  const lowLevel = "server" in server ? server.server : server;
  if ("mcpReq" in ctx) {
    const envelope = (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;
    const version = stringOr(envelope[PROTOCOL_VERSION_META_KEY]) ?? lowLevel.getNegotiatedProtocolVersion?.();
    const capabilities = (envelope[CLIENT_CAPABILITIES_META_KEY] as object | undefined) ?? lowLevel.getClientCapabilities();
    return new HostResources((request, options) => ctx.mcpReq.send(request, ANY_RESULT, options), capabilities, version, ctx.mcpReq.signal);
  }
  // SDK v1 negotiates 2025-era revisions only; over HTTP the client names it on every request.
  const header = ctx.requestInfo?.headers?.["mcp-protocol-version"];
  const version = lowLevel.getNegotiatedProtocolVersion?.() ?? stringOr(Array.isArray(header) ? header[0] : header);
  return new HostResources((request, options) => ctx.sendRequest(request, ANY_RESULT, options), lowLevel.getClientCapabilities(), version, ctx.signal);
}

/** Reachable only below 2026-07-28. An unknown version means an initialize-era connection (SDK v1). */
export function isHostResourcesEra(protocolVersion: string | undefined): boolean {
  return protocolVersion === undefined || protocolVersion < FIRST_REVISION_WITHOUT_HOST_RESOURCES;
}

/**
 * The claimed capability: under `extensions` (where the host claims it), or under
 * `experimental`, where hosts mirror it for SDK versions that drop unknown capability keys.
 */
function claimedCapability(capabilities: object | undefined): HostResourcesCapability | null {
  const caps = (capabilities ?? {}) as { extensions?: Record<string, unknown>; experimental?: Record<string, unknown> };
  const claimed = caps.extensions?.[HOST_RESOURCES_EXTENSION] ?? caps.experimental?.[HOST_RESOURCES_EXTENSION];
  return typeof claimed === "object" && claimed !== null && !Array.isArray(claimed) ? (claimed as HostResourcesCapability) : null;
}

function stringOr(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** A malformed answer is the host's fault: say so instead of handing back a wrong type. */
function malformed(method: string, detail: string): Error {
  return new TypeError(`The host answered ${method} with a malformed result: ${detail}`);
}

function checkReadResult(result: unknown): ReadResourceResult {
  const contents = (result as { contents?: unknown } | null)?.contents;
  if (!Array.isArray(contents)) throw malformed(READ_METHOD, "no contents array");
  for (const c of contents as Array<Record<string, unknown> | null>) {
    if (typeof c?.uri !== "string") throw malformed(READ_METHOD, "a content without a uri");
    if (typeof c.text !== "string" && typeof c.blob !== "string") throw malformed(READ_METHOD, "a content with neither text nor blob");
  }
  return result as ReadResourceResult;
}

function checkListResult(result: unknown): ListResourcesResult {
  const resources = (result as { resources?: unknown } | null)?.resources;
  if (!Array.isArray(resources)) throw malformed(LIST_METHOD, "no resources array");
  for (const r of resources as Array<Record<string, unknown> | null>) {
    if (typeof r?.uri !== "string" || typeof r.name !== "string") throw malformed(LIST_METHOD, "a resource without uri and name");
  }
  return result as ListResourcesResult;
}
