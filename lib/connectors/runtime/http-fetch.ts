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
  body: Buffer;
}

/** Thrown when the answer exceeds the byte cap. */
export class ResponseTooLargeError extends Error {}
/** Thrown for a redirect we refuse to follow (too many, another scheme, no Location). */
export class RedirectRefusedError extends Error {}

/** Performs the exchange; network failures and aborts reject with the fetch error. */
export async function fetchWithLimits(plan: FetchPlan): Promise<FetchedResponse> {
  const origin = plan.url.origin;
  let { method, url, body } = plan;
  // Once a redirect has left the connector's origin, secrets stay off every later hop too.
  let secretsAllowed = true;
  for (let hop = 0; ; hop++) {
    secretsAllowed &&= url.origin === origin;
    const headers = new Headers(plan.headers);
    if (secretsAllowed) for (const [name, value] of Object.entries(plan.secretHeaders)) headers.set(name, value);
    if (body === null) headers.delete("content-type");
    const response = await fetch(url, { method, headers, body, redirect: "manual", signal: plan.signal });
    const location = response.headers.get("location");
    if (!isRedirect(response.status) || location === null) {
      return {
        status: response.status,
        statusText: response.statusText,
        url,
        contentType: response.headers.get("content-type") ?? "",
        body: await readCapped(response, plan.maxBytes),
      };
    }
    await response.body?.cancel().catch(() => undefined);
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

async function readCapped(response: Response, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new ResponseTooLargeError(`response too large: ${declared} bytes, the limit is ${maxBytes}`);
  }
  if (!response.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new ResponseTooLargeError(`response too large: more than ${maxBytes} bytes`);
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks);
}
