import { LRUCache } from "lru-cache";
import type { BetterAuthPlugin } from "better-auth";
import { extendOAuthProvider, oauthClientMetadataSchema, type ClientDiscovery, type OAuthOptions, type Scope } from "@better-auth/oauth-provider";
import { isForbiddenCimdClientMetadataField, registerClientMetadataDocument } from "@better-auth/oauth-provider/internal";
import { setting } from "@/lib/config/settings";
import { logger } from "@/lib/log";
import { redirectUrisRefusal } from "@/lib/oauth/check-redirect-uri";
import { mayCreateClient } from "@/lib/oauth/client-limits";
import { fetchClientDocument, type FetchedDocument } from "@/lib/oauth/fetch-client-document";
import { processState } from "@/lib/process-state";

/**
 * Client ID Metadata Documents (the MCP authorization profile of 2026-07-28): a client that
 * has never met this server names itself by an https URL, and "the authorization server
 * fetches the document at that URL" for its name and redirect URIs. Resolved here through
 * @better-auth/oauth-provider's client-discovery seam, so /authorize and /token treat the
 * result exactly as a registered public client; the row is kept (connected apps, grants) and
 * refreshed from the URL once the document's own cache lifetime has passed. Any failure —
 * unreachable, too large, a client_id that is not the URL, a secret in the document — leaves
 * no client, which /authorize answers with `invalid_client` on this site's error page.
 */

const DISCOVERY_ID = "cimd";
/** When the document says nothing about caching. */
const DEFAULT_FRESH_SEC = 300;
/** However long a document asks to be kept, it is fetched again after a day. */
const MAX_FRESH_SEC = 24 * 3600;

/** OAUTH_CIMD_ALLOW_LOOPBACK (tests): http://127.0.0.1 / localhost documents are fetched too. */
function loopbackAllowed(): boolean {
  return setting("OAUTH_CIMD_ALLOW_LOOPBACK");
}

/**
 * The client_id forms the profile accepts: "MUST be an https URL with a path component",
 * no fragment, no credentials, no dot segments (WHATWG parsing would silently remove them,
 * so they are looked for in the raw string).
 */
export function isClientIdUrl(clientId: string): boolean {
  if (!/^https?:\/\//i.test(clientId) || clientId.includes("#") || /\/\.\.?(\/|$)/.test(clientId)) return false;
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return false;
  }
  if (url.username || url.password || url.pathname === "/" || url.href !== clientId) return false;
  if (url.protocol === "https:") return true;
  return loopbackAllowed() && ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);
}

/**
 * How many documents' lifetimes are remembered. Any https URL names a client, so without a bound
 * a stream of made-up client ids would grow this for ever; a document forgotten is fetched again.
 */
export const MAX_REMEMBERED_DOCUMENTS = 10_000;
const freshUntil = (processState<{ switchboardCimdFreshUntil?: LRUCache<string, number> }>().switchboardCimdFreshUntil ??= new LRUCache({ max: MAX_REMEMBERED_DOCUMENTS }));

/** Whether the document of `clientId` fetched last may still be used as it was. */
export function isDocumentFresh(clientId: string): boolean {
  return (freshUntil.get(clientId) ?? 0) > Date.now();
}

export function rememberDocument(clientId: string, freshSec: number): void {
  freshUntil.set(clientId, Date.now() + freshSec * 1000);
}

/** How long the answer may be reused, from its Cache-Control (max-age) or Expires. */
export function freshSeconds(headers: FetchedDocument["headers"]): number {
  const control = String(headers["cache-control"] ?? "").toLowerCase();
  if (/\b(no-store|no-cache)\b/.test(control)) return 0;
  const maxAge = /\bmax-age=(\d+)/.exec(control);
  if (maxAge) return Math.min(Number(maxAge[1]), MAX_FRESH_SEC);
  const expires = headers.expires ? Date.parse(headers.expires) : NaN;
  if (Number.isFinite(expires)) return Math.max(0, Math.min((expires - Date.now()) / 1000, MAX_FRESH_SEC));
  return DEFAULT_FRESH_SEC;
}

/** The document at `clientId`, validated; a sentence saying why not otherwise. */
async function loadDocument(clientId: string): Promise<{ metadata: Record<string, unknown>; fresh: number } | string> {
  let answer: FetchedDocument;
  try {
    answer = await fetchClientDocument(new URL(clientId), loopbackAllowed());
  } catch (error) {
    return (error as Error).message;
  }
  if (answer.status !== 200) return `The document's URL answered ${answer.status}.`;
  let json: unknown;
  try {
    json = JSON.parse(answer.body);
  } catch {
    return "The document is not JSON.";
  }
  const parsed = oauthClientMetadataSchema.safeParse(json);
  if (!parsed.success) return `The document is not client metadata: ${parsed.error.issues[0]?.message}.`;
  const metadata = parsed.data as Record<string, unknown>;
  // "The client_id property MUST match the URL of the document using simple string comparison."
  if (metadata.client_id !== clientId) return "The document's client_id is not its URL.";
  if (!Array.isArray(metadata.redirect_uris) || metadata.redirect_uris.length === 0) return "The document names no redirect_uris.";
  const refusedUri = redirectUrisRefusal(metadata.redirect_uris.map(String));
  if (refusedUri) return refusedUri;
  const forbidden = Object.keys(metadata).find(isForbiddenCimdClientMetadataField);
  if (forbidden) return `The document carries ${forbidden}, which only a server may assign.`;
  // Public clients only: a private_key_jwt client would need its jwks_uri fetched under the same rules.
  if ((metadata.token_endpoint_auth_method ?? "none") !== "none") return "The document's client must be public (token_endpoint_auth_method none).";
  return { metadata, fresh: freshSeconds(answer.headers) };
}

function discovery(options: () => OAuthOptions<Scope[]>): ClientDiscovery {
  return {
    id: DISCOVERY_ID,
    matches: isClientIdUrl,
    discoveryMetadata: { client_id_metadata_document_supported: true },
    async resolve(ctx, clientId, existing) {
      if (existing && isDocumentFresh(clientId)) return existing;
      // A new client row for anyone who names a URL: within its address's budget of new clients.
      if (!existing && !(await mayCreateClient(ctx.request?.headers ?? ctx.headers, clientId))) return null;
      const loaded = await loadDocument(clientId);
      if (typeof loaded === "string") {
        logger.info({ clientId, reason: loaded }, "Client ID Metadata Document refused");
        return null;
      }
      try {
        const { client } = await registerClientMetadataDocument(ctx, options(), {
          metadata: loaded.metadata as never,
          clientId,
          clientDiscoveryId: DISCOVERY_ID,
          existingClient: existing ?? undefined,
        });
        rememberDocument(clientId, loaded.fresh);
        return client;
      } catch (error) {
        logger.info({ clientId, reason: (error as { body?: unknown }).body ?? String(error) }, "Client ID Metadata Document refused");
        return null;
      }
    },
  };
}

/** The better-auth plugin that adds the discovery to the oauth-provider plugin (listed after it). */
export function clientMetadataDocuments(): BetterAuthPlugin {
  let options: OAuthOptions<Scope[]> | undefined;
  return {
    id: "switchboard-cimd",
    init(ctx) {
      const provider = ctx.getPlugin("oauth-provider") as unknown as { options: OAuthOptions<Scope[]> } | null;
      if (!provider) throw new Error("Client ID Metadata Documents need the oauth-provider plugin.");
      options = provider.options;
      extendOAuthProvider(ctx, { clientDiscovery: discovery(() => options!) });
    },
  };
}
