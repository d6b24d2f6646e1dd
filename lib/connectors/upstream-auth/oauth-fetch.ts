import type { FetchLike } from "@modelcontextprotocol/client";

/**
 * The fetch the OAuth client uses toward an upstream's metadata, registration, token and
 * revocation endpoints (issue 24 point 2): the addresses the connector itself may reach
 * (upstreams may be private, as the connector's own requests may be), bounded in time and in
 * size, and redirected only on the same origin (scheme, host and port) and only for a GET: a
 * token, registration or revocation request carries a code_verifier, refresh token or client
 * secret that must not be re-sent elsewhere, nor in clear after an https → http downgrade.
 */

export const OAUTH_TIMEOUT_MS = 10_000;
export const OAUTH_MAX_BYTES = 1024 * 1024;
const MAX_REDIRECTS = 3;

export class OAuthFetchRefusedError extends Error {}

export const limitedFetch: FetchLike = async (input, init) => {
  let url = new URL(typeof input === "string" || input instanceof URL ? input : (input as Request).url);
  const origin = url.origin;
  const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
  const signal = init?.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(OAUTH_TIMEOUT_MS)]) : AbortSignal.timeout(OAUTH_TIMEOUT_MS);
  for (let hop = 0; ; hop++) {
    const response = await fetch(url, { ...init, redirect: "manual", signal });
    const location = response.headers.get("location");
    if (response.status < 300 || response.status >= 400 || !location) return capped(response);
    await response.body?.cancel();
    const next = new URL(location, url);
    if (next.origin !== origin) throw new OAuthFetchRefusedError(`a redirect from ${origin} to another origin (${next.origin}) was not followed`);
    if (method !== "GET" && method !== "HEAD") throw new OAuthFetchRefusedError(`a redirect of a ${method} request was not followed`);
    if (hop >= MAX_REDIRECTS) throw new OAuthFetchRefusedError(`more than ${MAX_REDIRECTS} redirects`);
    url = next;
  }
};

/** The answer with its body read whole, refused above OAUTH_MAX_BYTES. */
async function capped(response: Response): Promise<Response> {
  const declared = Number(response.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > OAUTH_MAX_BYTES) {
    await response.body?.cancel();
    throw new OAuthFetchRefusedError(`an answer of ${declared} bytes (the limit is ${OAUTH_MAX_BYTES})`);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (response.body) {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      total += chunk.byteLength;
      if (total > OAUTH_MAX_BYTES) throw new OAuthFetchRefusedError(`an answer of more than ${OAUTH_MAX_BYTES} bytes`);
      chunks.push(chunk);
    }
  }
  const status = response.status;
  const body = status === 204 || status === 304 ? null : Buffer.concat(chunks);
  return new Response(body, { status, statusText: response.statusText, headers: response.headers });
}
