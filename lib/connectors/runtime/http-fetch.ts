import type { Readable } from "node:stream";
import { exchange } from "@/lib/connectors/runtime/http-exchange";

/**
 * The outbound HTTP exchange of an http tool: a timeout over the whole exchange, redirects
 * followed by hand (at most MAX_REDIRECTS, http(s) only, secret headers sent to the
 * connector's own origin only), and a cap on the bytes read from the answer.
 */

export const MAX_REDIRECTS = 5;

export interface FetchPlan {
  method: string;
  url: URL;
  body: string | null;
  /** Sent only while the request stays on `url`'s origin (the connector's decrypted headers). */
  secretHeaders: Record<string, string>;
  /** Sent everywhere (accept, content-type). */
  headers: Record<string, string>;
  maxBytes: number;
  signal: AbortSignal;
}

export interface FetchedResponse {
  status: number;
  statusText: string;
  url: URL;
  contentType: string;
  /** The answer's challenge, read for a step-up (lib/connectors/upstream-auth/step-up.ts). */
  wwwAuthenticate?: string;
  body: Buffer;
}

/** Thrown when the answer exceeds the byte cap. */
export class ResponseTooLargeError extends Error {}
/** Thrown for a redirect we refuse to follow (too many, another scheme, no Location). */
export class RedirectRefusedError extends Error {}

/** Performs the exchange; network failures and aborts reject with the socket's error or an AbortError. */
export async function fetchWithLimits(plan: FetchPlan): Promise<FetchedResponse> {
  const origin = plan.url.origin;
  let { method, url, body } = plan;
  // Once a redirect has left the connector's origin, secrets stay off every later hop too.
  let secretsAllowed = true;
  for (let hop = 0; ; hop++) {
    secretsAllowed &&= url.origin === origin;
    const headers = lowerCased(plan.headers);
    if (secretsAllowed) Object.assign(headers, lowerCased(plan.secretHeaders));
    if (body === null) delete headers["content-type"];
    const response = await exchange({ method, url, headers, body, signal: plan.signal });
    const location = response.headers.location;
    if (!isRedirect(response.status) || location === undefined) {
      return {
        status: response.status,
        statusText: response.statusText,
        url,
        contentType: response.headers["content-type"] ?? "",
        wwwAuthenticate: response.headers["www-authenticate"],
        body: await readCapped(response.body, Number(response.headers["content-length"] ?? NaN), plan.maxBytes, response.discard),
      };
    }
    response.discard();
    if (hop >= MAX_REDIRECTS) throw new RedirectRefusedError(`more than ${MAX_REDIRECTS} redirects`);
    const next = new URL(location, url);
    if (next.protocol !== "http:" && next.protocol !== "https:") throw new RedirectRefusedError(`a redirect to a ${next.protocol} URL`);
    // 303, and 301/302 after a POST, turn into a GET without body (what browsers and fetch do).
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === "POST")) {
      method = method === "HEAD" ? "HEAD" : "GET";
      body = null;
    }
    url = next;
  }
}

function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/** Header names as HTTP/1.1 sends them (case-insensitive): a later spelling of a name wins. */
function lowerCased(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value;
  return out;
}

async function readCapped(body: Readable, declared: number, maxBytes: number, discard: () => void): Promise<Buffer> {
  if (Number.isFinite(declared) && declared > maxBytes) {
    discard();
    throw new ResponseTooLargeError(`response too large: ${declared} bytes, the limit is ${maxBytes}`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += (chunk as Buffer).byteLength;
    if (total > maxBytes) {
      body.destroy();
      throw new ResponseTooLargeError(`response too large: more than ${maxBytes} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
