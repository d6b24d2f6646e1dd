/**
 * Typed errors for the extension's JSON-RPC error codes (the seed's "Errors" table), so a tool
 * can `catch (e) { if (e instanceof HostResourceNotFoundError) … }` instead of comparing codes.
 */

/** JSON-RPC error codes the host answers with. */
export const HOST_RESOURCES_ERROR_CODES = {
  /** Resource not found, or not visible to this caller. */
  notFound: -32002,
  /** Unsupported scheme, a cursor, or a malformed filter. */
  invalidParams: -32602,
  /** This server's request budget in this workspace is spent. */
  rateLimited: -32004,
  /** The resource exceeds read.maxSize. */
  tooLarge: -32005,
} as const;

/** Any error the host answered a host-resources request with; `code` and `data` are the wire's. */
export class HostResourcesError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** -32002: the resource does not exist, or exists where this caller cannot see it (the same answer). */
export class HostResourceNotFoundError extends HostResourcesError {
  constructor(
    message: string,
    readonly uri: string,
  ) {
    super(message, HOST_RESOURCES_ERROR_CODES.notFound, { uri });
  }
}

/**
 * -32602: unsupported scheme (`{ uri | scheme, supported }`), a cursor (`{ cursor }`) or a
 * malformed filter (`{ receivedType }`). The fields are copied from `data` when present.
 */
export class HostResourcesInvalidParamsError extends HostResourcesError {
  readonly uri?: string;
  readonly scheme?: unknown;
  readonly supported?: string[];
  readonly cursor?: unknown;
  readonly receivedType?: string;

  constructor(message: string, data?: unknown) {
    super(message, HOST_RESOURCES_ERROR_CODES.invalidParams, data);
    const d = isRecord(data) ? data : {};
    if (typeof d.uri === "string") this.uri = d.uri;
    if ("scheme" in d) this.scheme = d.scheme;
    if (Array.isArray(d.supported)) this.supported = d.supported.filter((s): s is string => typeof s === "string");
    if ("cursor" in d) this.cursor = d.cursor;
    if (typeof d.receivedType === "string") this.receivedType = d.receivedType;
  }
}

/** -32004: rate limited; try again after `retryAfterMs` milliseconds. */
export class HostResourcesRateLimitedError extends HostResourcesError {
  constructor(
    message: string,
    readonly retryAfterMs: number,
  ) {
    super(message, HOST_RESOURCES_ERROR_CODES.rateLimited, { retryAfterMs });
  }
}

/** -32005: the resource (`size` bytes) exceeds the host's read.maxSize. */
export class HostResourceTooLargeError extends HostResourcesError {
  constructor(
    message: string,
    readonly uri: string,
    readonly size: number,
    readonly maxSize: number,
  ) {
    super(message, HOST_RESOURCES_ERROR_CODES.tooLarge, { uri, size, maxSize });
  }
}

/**
 * The operation is not available on this connection: the host did not claim it (or claimed it
 * with `enabled: false`), or the connection negotiated 2026-07-28 or later. Thrown before
 * anything is sent; take the content inline instead.
 */
export class HostResourcesUnavailableError extends HostResourcesError {
  constructor(readonly operation: "read" | "list") {
    super(`The host does not serve ai.nimblebrain/resources/${operation} on this connection; take the content inline.`, -32601);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The typed error for an error a host request was rejected with. Both SDKs reject with an
 * object carrying the wire's numeric `code`, `message` and `data`; anything without a numeric
 * code (a timeout of the SDK, a closed connection) is returned unchanged.
 *
 * The v2 SDK rebuilds a received -32002 `{ uri }` as its ResourceNotFoundError whose `code` is
 * -32602 (the 2026-07-28 spelling): a -32602 whose data is exactly `{ uri }` is "not found" too.
 */
export function toHostResourcesError(error: unknown, requestedUri?: string): unknown {
  const e = error as { code?: unknown; message?: unknown; data?: unknown } | null;
  if (!e || typeof e.code !== "number") return error;
  const message = stripSdkPrefix(typeof e.message === "string" ? e.message : "Host resources request failed");
  const data = isRecord(e.data) ? e.data : undefined;
  const dataUri = typeof data?.uri === "string" ? data.uri : undefined;
  switch (e.code) {
    case HOST_RESOURCES_ERROR_CODES.notFound:
      return new HostResourceNotFoundError(message, dataUri ?? requestedUri ?? "");
    case HOST_RESOURCES_ERROR_CODES.invalidParams:
      if (dataUri !== undefined && Object.keys(data!).length === 1) return new HostResourceNotFoundError(message, dataUri);
      return new HostResourcesInvalidParamsError(message, e.data);
    case HOST_RESOURCES_ERROR_CODES.rateLimited:
      return new HostResourcesRateLimitedError(message, typeof data?.retryAfterMs === "number" ? data.retryAfterMs : 0);
    case HOST_RESOURCES_ERROR_CODES.tooLarge:
      return new HostResourceTooLargeError(
        message,
        dataUri ?? requestedUri ?? "",
        typeof data?.size === "number" ? data.size : NaN,
        typeof data?.maxSize === "number" ? data.maxSize : NaN,
      );
    default:
      return new HostResourcesError(message, e.code, e.data);
  }
}

/** The v1 SDK prefixes received messages with "MCP error <code>: "; the host's own text is what matters. */
function stripSdkPrefix(message: string): string {
  return message.replace(/^(MCP error -?\d+: )+/, "");
}
