import { HOST_RESOURCES_ERRORS, HOST_RESOURCES_SCHEMES } from "@/lib/host-resources/capability";

/**
 * A JSON-RPC error of the host-resources extension (seed 000 "Errors"): the numeric `code`
 * and the `error.data` the seed's table gives for it. The outbound connection answers the
 * upstream server with exactly these (keeping -32002 as -32002 on the wire).
 */
export class HostResourcesError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown,
  ) {
    super(message);
    this.name = "HostResourcesError";
  }
}

export const isHostResourcesError = (e: unknown): e is HostResourcesError => e instanceof HostResourcesError;

const supported = () => [...HOST_RESOURCES_SCHEMES];

/** -32002 `{ uri }`: missing, or not visible to this caller — the same answer either way. */
export function resourceNotFound(uri: string): HostResourcesError {
  return new HostResourcesError(HOST_RESOURCES_ERRORS.notFound, `Resource not found: ${uri}`, { uri });
}

/** -32602 `{ uri, supported }`: a URI outside the schemes the host resolves. */
export function unsupportedUriScheme(uri: string): HostResourcesError {
  return new HostResourcesError(HOST_RESOURCES_ERRORS.invalidParams, `Unsupported URI scheme; the host resolves: ${supported().join(", ")}`, { uri, supported: supported() });
}

/** -32602 `{ scheme, supported }`: a list filter on a scheme other than `files`. */
export function unsupportedFilterScheme(scheme: unknown): HostResourcesError {
  return new HostResourcesError(HOST_RESOURCES_ERRORS.invalidParams, `Unsupported scheme filter; the host resolves: ${supported().join(", ")}`, { scheme, supported: supported() });
}

/** -32602 `{ cursor }`: pagination is not supported; failing tells a pagination loop so. */
export function cursorNotSupported(cursor: unknown): HostResourcesError {
  return new HostResourcesError(HOST_RESOURCES_ERRORS.invalidParams, "Pagination is not supported: the whole list comes back in one response.", { cursor });
}

/** -32602 `{ receivedType }`: a malformed parameter or filter field (e.g. tags that are not an array). */
export function malformedParam(what: string, value: unknown): HostResourcesError {
  return new HostResourcesError(HOST_RESOURCES_ERRORS.invalidParams, `Invalid params: ${what}`, { receivedType: typeOfJson(value) });
}

/** -32004 `{ retryAfterMs }`: this server's budget in this workspace is spent. */
export function rateLimited(retryAfterMs: number): HostResourcesError {
  return new HostResourcesError(HOST_RESOURCES_ERRORS.rateLimited, `Rate limited: retry in ${retryAfterMs} ms.`, { retryAfterMs });
}

/** -32005 `{ uri, size, maxSize }`: the resource exceeds read.maxSize. */
export function resourceTooLarge(uri: string, size: number, maxSize: number): HostResourcesError {
  return new HostResourcesError(HOST_RESOURCES_ERRORS.tooLarge, `Resource too large: ${size} bytes, the largest read is ${maxSize} bytes.`, { uri, size, maxSize });
}

/** The JSON type of a value as a reader would name it: "array" and "null" rather than "object". */
export function typeOfJson(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}
