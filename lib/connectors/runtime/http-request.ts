import { describeFlaw, textFlaw } from "@/lib/api/validate-text";

/**
 * Turns an http tool's mapping (ADMIN_API.md "Connectors") and its arguments into a request:
 * `{param}` in the path takes that argument, URL-encoded; the other arguments go to the query
 * string for GET and DELETE and to a JSON body otherwise.
 */

export interface PlannedRequest {
  method: string;
  url: URL;
  /** JSON text of the body, or null (GET, DELETE). */
  body: string | null;
}

const PLACEHOLDER = /\{([^{}]+)\}/g;
const BODYLESS = new Set(["GET", "DELETE", "HEAD"]);

/** Thrown for arguments that cannot form a request (the message names the argument). */
export class RequestPlanError extends Error {}

/** Builds the request; throws RequestPlanError for a missing or unusable path argument. */
export function planHttpRequest(
  baseUrl: string,
  mapping: { method: string; path: string },
  args: Record<string, unknown>,
): PlannedRequest {
  const used = new Set<string>();
  const path = mapping.path.replace(PLACEHOLDER, (_, name: string) => {
    used.add(name);
    return encodePathValue(name, args[name]);
  });
  const url = joinUrl(baseUrl, path);
  const rest = Object.entries(args).filter(([name, value]) => !used.has(name) && value !== undefined);
  const method = mapping.method.toUpperCase();
  if (BODYLESS.has(method)) {
    for (const [name, value] of rest) appendQuery(url.searchParams, name, value);
    return { method, url, body: null };
  }
  return { method, url, body: JSON.stringify(Object.fromEntries(rest)) };
}

function encodePathValue(name: string, value: unknown): string {
  if (value === undefined || value === null) throw new RequestPlanError(`Invalid arguments: missing path parameter "${name}"`);
  const text = typeof value === "object" ? JSON.stringify(value) : String(value);
  // encodeURIComponent throws on such text; the caller must hear which argument it was.
  const flaw = textFlaw(text);
  if (flaw) throw new RequestPlanError(`Invalid arguments: path parameter "${name}" ${describeFlaw(flaw)}`);
  // URL parsers resolve "." and ".." segments (even percent-encoded), which would move the
  // request to another path of the API than the mapping names.
  if (text === "" || /^(\.|%2e){1,2}$/i.test(text)) throw new RequestPlanError(`Invalid arguments: path parameter "${name}" cannot be "${text}"`);
  return encodeURIComponent(text);
}

/** baseUrl + path, keeping the base's own path ("https://x/v1" + "/a" → "https://x/v1/a"). */
function joinUrl(baseUrl: string, path: string): URL {
  const base = new URL(baseUrl);
  const joined = new URL(base.href.replace(/[?#].*$/, "").replace(/\/+$/, "") + path);
  if (joined.origin !== base.origin) throw new RequestPlanError("Invalid arguments: the request would leave the connector's base URL");
  return joined;
}

function appendQuery(params: URLSearchParams, name: string, value: unknown): void {
  if (value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) if (item !== null && item !== undefined) params.append(name, scalar(item));
    return;
  }
  params.append(name, scalar(value));
}

function scalar(value: unknown): string {
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}
