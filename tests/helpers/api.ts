/**
 * Drives the admin JSON API in-process: a request path is routed to the route module under
 * app/ that Next.js would use, and its handler is called with a real Request. Same handlers,
 * same database, no HTTP server to start.
 */
import { matchRoute } from "@/tests/helpers/app-routes";

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** Send this string as the body verbatim (e.g. malformed JSON). */
  raw?: string | FormData | Uint8Array;
}

/** Sends one request to the route that serves `path` (e.g. "/api/v1/orgs?limit=2"). */
export async function request(method: string, path: string, token: string | null, body?: unknown, opts: RequestOptions = {}): Promise<ApiResponse> {
  const url = new URL(path, "http://localhost:3000");
  const route = await matchRoute(method, url.pathname);
  if (!route) throw new Error(`No route file serves ${url.pathname}`);
  const { handler, params } = route;
  if (!handler) return { status: 405, headers: new Headers(), body: null, text: "" };
  const headers = new Headers(opts.headers);
  if (token) headers.set("authorization", `Bearer ${token}`);
  let payload: BodyInit | undefined;
  if (opts.raw !== undefined) payload = opts.raw as BodyInit;
  else if (body !== undefined) {
    payload = JSON.stringify(body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const response = await handler(new Request(url, { method, headers, body: payload }), { params: Promise.resolve(params) });
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/** A client bound to one credential: `api(token).post("/api/v1/orgs", {...})`. */
export function api(token: string | null) {
  return {
    get: (path: string, opts?: RequestOptions) => request("GET", path, token, undefined, opts),
    post: (path: string, body?: unknown, opts?: RequestOptions) => request("POST", path, token, body, opts),
    put: (path: string, body?: unknown, opts?: RequestOptions) => request("PUT", path, token, body, opts),
    patch: (path: string, body?: unknown, opts?: RequestOptions) => request("PATCH", path, token, body, opts),
    delete: (path: string, opts?: RequestOptions) => request("DELETE", path, token, undefined, opts),
  };
}
