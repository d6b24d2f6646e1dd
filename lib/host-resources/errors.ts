import {
  HostResourceNotFoundError,
  HostResourcesError,
  HostResourcesInvalidParamsError,
  HostResourcesRateLimitedError,
  HostResourceTooLargeError,
} from "@/packages/host-resources/src/errors";
import { HOST_RESOURCES_SCHEMES } from "@/lib/host-resources/capability";

/**
 * The host's answers for seed 000 "Errors", as the package's typed errors (the same classes a
 * server built on @switchboard/host-resources catches): the numeric `code` and the
 * `error.data` the seed's table gives for it. The outbound connection answers the upstream
 * server with exactly these (keeping -32002 as -32002 on the wire).
 */
export { HostResourcesError };

export const isHostResourcesError = (e: unknown): e is HostResourcesError => e instanceof HostResourcesError;

const supported = () => [...HOST_RESOURCES_SCHEMES];

/** -32002 `{ uri }`: missing, or not visible to this caller — the same answer either way. */
export function resourceNotFound(uri: string): HostResourcesError {
  return new HostResourceNotFoundError(`Resource not found: ${uri}`, uri);
}

/** -32602 `{ uri, supported }`: a URI outside the schemes the host resolves. */
export function unsupportedUriScheme(uri: string): HostResourcesError {
  return new HostResourcesInvalidParamsError(`Unsupported URI scheme; the host resolves: ${supported().join(", ")}`, { uri, supported: supported() });
}

/** -32602 `{ scheme, supported }`: a list filter on a scheme other than `files`. */
export function unsupportedFilterScheme(scheme: unknown): HostResourcesError {
  return new HostResourcesInvalidParamsError(`Unsupported scheme filter; the host resolves: ${supported().join(", ")}`, { scheme, supported: supported() });
}

/** -32602 `{ cursor }`: pagination is not supported; failing tells a pagination loop so. */
export function cursorNotSupported(cursor: unknown): HostResourcesError {
  return new HostResourcesInvalidParamsError("Pagination is not supported: the whole list comes back in one response.", { cursor });
}

/** -32602 `{ receivedType }`: a malformed parameter or filter field (e.g. tags that are not an array). */
export function malformedParam(what: string, value: unknown): HostResourcesError {
  return new HostResourcesInvalidParamsError(`Invalid params: ${what}`, { receivedType: typeOfJson(value) });
}

/** -32004 `{ retryAfterMs }`: this server's budget in this workspace is spent. */
export function rateLimited(retryAfterMs: number): HostResourcesError {
  return new HostResourcesRateLimitedError(`Rate limited: retry in ${retryAfterMs} ms.`, retryAfterMs);
}

/** -32005 `{ uri, size, maxSize }`: the resource exceeds read.maxSize. */
export function resourceTooLarge(uri: string, size: number, maxSize: number): HostResourcesError {
  return new HostResourceTooLargeError(`Resource too large: ${size} bytes, the largest read is ${maxSize} bytes.`, uri, size, maxSize);
}

/**
 * -32005 `{ maxResources }`: more files match a list than one answer carries. The seed
 * gives the whole list in one response, with no pagination; rather than cut it silently (a
 * server would take a partial list for the whole), the list fails like an oversized read, and
 * says how to narrow it.
 */
export function listTooLarge(maxResources: number): HostResourcesError {
  return new HostResourcesError(
    `Response too large: more than ${maxResources} resources match; narrow the list with params._meta.filter (mimeType, tags).`,
    -32005,
    { maxResources },
  );
}

/** -32603 `{ uri }`: the resource exists but its content cannot be had right now. */
export function contentUnavailable(uri: string): HostResourcesError {
  return new HostResourcesError("The resource's content is not available right now.", -32603, { uri });
}

/** The JSON type of a value as a reader would name it: "array" and "null" rather than "object". */
function typeOfJson(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}
