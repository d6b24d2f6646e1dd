import { randomBytes } from "node:crypto";
import { isReverseDomainPrivateUseRedirectUri } from "@better-auth/core/utils/redirect-uri";
import { db } from "@/lib/db/client";
import { OAUTH_BASE_PATH } from "@/lib/oauth/authorization-server";
import { redirectUrisRefusal, STAND_IN_SCHEME_PREFIX } from "@/lib/oauth/check-redirect-uri";

/**
 * Dynamic registrations of native apps, as the clients in the field send them, where
 * better-auth 1.7.5 reads RFC 8252 more narrowly:
 * - no `application_type` and only loopback http or private-use redirect URIs: a native app
 *   (RFC 8252 §7.3). better-auth applies OpenID's default ("web"), which refuses both — and the
 *   MCP SDK v1, mcp-remote and the clients built on them register exactly so.
 * - a private-use scheme with an authority, or not a reverse domain name
 *   (`cursor://anysphere.cursor-retrieval/oauth/…/callback`, Cursor's): RFC 8252 §7.1 only
 *   recommends the reverse-domain form, and better-auth refuses anything else. Such a URI is
 *   registered under a reverse-domain stand-in, then stored as sent (matching at /authorize is
 *   exact string comparison, so the stand-in is never reachable), and answered as sent. The
 *   stand-in is random per registration, in a scheme no client may register itself.
 * Browser-internal and script schemes (lib/oauth/check-redirect-uri.ts), fragments and
 * credentials stay refused.
 */

const LOOPBACK_HTTP = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?\//i;
const REFUSED_SCHEMES = new Set(["http:", "https:", "javascript:", "data:", "vbscript:", "file:", "ftp:", "mailto:", "blob:", "about:", "ws:", "wss:"]);
const REGISTER_PATH = `${OAUTH_BASE_PATH}/oauth2/register`;

/** A private-use scheme URI better-auth would refuse that a native app may still use. */
function isFieldPrivateUseUri(uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (uri.includes("#") || url.username || url.password || REFUSED_SCHEMES.has(url.protocol)) return false;
  return /^[a-z][a-z0-9+.-]*:$/i.test(url.protocol) && !isReverseDomainPrivateUseRedirectUri(url);
}

function isNativeUri(uri: string): boolean {
  if (LOOPBACK_HTTP.test(uri)) return true;
  try {
    const url = new URL(uri);
    return !REFUSED_SCHEMES.has(url.protocol) && (isReverseDomainPrivateUseRedirectUri(url) || isFieldPrivateUseUri(uri));
  } catch {
    return false;
  }
}

export interface NativeRegistration {
  request: Request;
  /** The answer when the registration names a redirect URI no client may register. */
  refusal: Response | null;
  /** Puts the stood-in redirect URIs back in the stored client and in the answer. */
  finish(response: Response): Promise<Response>;
}

const unchanged = (request: Request): NativeRegistration => ({ request, refusal: null, finish: async (response) => response });

function refused(request: Request, description: string): NativeRegistration {
  const refusal = Response.json({ error: "invalid_redirect_uri", error_description: description }, { status: 400, headers: { "cache-control": "no-store" } });
  return { request, refusal, finish: async () => refusal };
}

/** Each private-use URI better-auth would refuse, by a stand-in it accepts: the stand-in maps back. */
function standInFor(uris: string[]): { uris: string[]; standIns: Map<string, string> } {
  const standIns = new Map<string, string>();
  const nonce = randomBytes(12).toString("hex");
  const replaced = uris.map((uri, i) => {
    if (!isFieldPrivateUseUri(uri)) return uri;
    const standIn = `${STAND_IN_SCHEME_PREFIX}.r${nonce}x${i}:/callback`;
    standIns.set(standIn, uri);
    return standIn;
  });
  return { uris: replaced, standIns };
}

export async function withNativeDefault(request: Request): Promise<NativeRegistration> {
  const { pathname } = new URL(request.url);
  if (request.method !== "POST" || pathname !== REGISTER_PATH) return unchanged(request);
  if (!request.headers.get("content-type")?.includes("application/json")) return unchanged(request);
  const text = await request.text();
  let registration: { application_type?: unknown; redirect_uris?: unknown } | null;
  try {
    registration = JSON.parse(text);
  } catch {
    return unchanged(new Request(request, { body: text }));
  }
  const uris = Array.isArray(registration?.redirect_uris) ? (registration.redirect_uris as unknown[]) : [];
  if (!registration || typeof registration !== "object" || !uris.every((u): u is string => typeof u === "string")) return unchanged(new Request(request, { body: text }));
  const refusal = redirectUrisRefusal(uris);
  if (refusal) return refused(new Request(request, { body: text }), refusal);
  if (registration.application_type === undefined && uris.length > 0 && uris.every(isNativeUri)) registration.application_type = "native";
  let standIns = new Map<string, string>();
  if (registration.application_type === "native") ({ uris: registration.redirect_uris, standIns } = standInFor(uris));
  return { request: new Request(request, { body: JSON.stringify(registration) }), refusal: null, finish: (response) => restoreStandIns(response, standIns) };
}

async function restoreStandIns(response: Response, standIns: Map<string, string>): Promise<Response> {
  if (standIns.size === 0 || response.status !== 201) return response;
  const body = (await response.json()) as { client_id: string; redirect_uris: string[] };
  body.redirect_uris = body.redirect_uris.map((uri) => standIns.get(uri) ?? uri);
  await db().oauthClient.update({ where: { clientId: body.client_id }, data: { redirectUris: body.redirect_uris } });
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify(body), { status: response.status, headers });
}
