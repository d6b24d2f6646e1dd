import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { jwt } from "better-auth/plugins";
import { oauthProvider } from "@better-auth/oauth-provider";
import { authSecret } from "@/lib/auth/session-token";
import { peopleAuthOptions } from "@/lib/auth/people-auth-options";
import { setting } from "@/lib/config/settings";
import { authDatabase } from "@/lib/oauth/auth-database";
import { clientMetadataDocuments } from "@/lib/oauth/client-metadata-document";
import { MCP_SCOPE } from "@/lib/oauth/protected-resource";
import { readableSigningKeys } from "@/lib/oauth/signing-keys";
import { publicOrigin } from "@/lib/servers/server-url";
import { processState } from "@/lib/process-state";

/**
 * The OAuth 2.1 authorization server for MCP clients, on better-auth 1.7.5 +
 * @better-auth/oauth-provider with its Prisma adapter over our Prisma 7 client (driver adapter,
 * no native engine). Mounted under OAUTH_BASE_PATH; its sessions are also the admin console's
 * (lib/auth/people-auth-options.ts). The issuer is the instance's public origin, so its RFC 8414
 * document is the root `/.well-known/oauth-authorization-server` that protected-resource
 * metadata points to.
 */

export const OAUTH_BASE_PATH = "/api/oauth";

/**
 * On unless OAUTH_ENABLED=false: Claude.ai and ChatGPT offer nothing but OAuth, so a default
 * install that left it off would leave them out.
 */
export function oauthEnabled(): boolean {
  return setting("OAUTH_ENABLED");
}

/**
 * The issuer a request talks to: the public address clients are told to use — PUBLIC_URL, else
 * the Host the request named when the MCP endpoints accept it (the one rule a server's `url`
 * follows, lib/servers/server-url.ts). Tokens carry the issuer and the endpoint URL they are
 * bound to, so a token issued at one address is refused at any other. Null (no authorization
 * server: JSON 404s, OAuth clients stop at discovery) when switched off or for a Host that is
 * not this platform's.
 */
export function oauthIssuer(headers: Headers, requestUrl: string): string | null {
  return oauthEnabled() ? publicOrigin(headers, requestUrl) : null;
}

/** The configured address (PUBLIC_URL, else localhost:PORT): for code that has no request. */
export function issuerOrigin(): string {
  return (setting("PUBLIC_URL") ?? `http://localhost:${setting("PORT")}`).replace(/\/+$/, "");
}

function build(origin: string) {
  return betterAuth({
    baseURL: origin,
    basePath: OAUTH_BASE_PATH,
    secret: authSecret(),
    database: prismaAdapter(authDatabase(), { provider: "postgresql" }),
    telemetry: { enabled: false },
    // Off: it cannot see the socket (route handlers get a Request), so it kept one bucket per
    // path for every visitor and believed any X-Forwarded-For a client wrote. The OAuth endpoints
    // have per-address budgets on the project's limiter instead (lib/oauth/client-limits.ts).
    rateLimit: { enabled: false },
    ...peopleAuthOptions(),
    plugins: [
      jwt({ jwt: { issuer: origin }, adapter: readableSigningKeys }),
      oauthProvider({
        loginPage: "/oauth/continue",
        consentPage: "/oauth/consent",
        scopes: [MCP_SCOPE, "offline_access"],
        // Claude.ai, ChatGPT and most 2025-era clients register themselves (RFC 7591).
        allowDynamicClientRegistration: true,
        allowUnauthenticatedClientRegistration: true,
        resources: [`${origin}/mcp`],
        enforcePerClientResources: false,
      }),
      // The 2026-07-28 profile's registration: a client_id that is its metadata document's URL.
      clientMetadataDocuments(),
    ],
  });
}

type AuthorizationServer = ReturnType<typeof build>;
const holder = processState<{ switchboardOauth?: Map<string, AuthorizationServer> }>();
/** One instance per issuer; a few addresses at most (PUBLIC_URL, or the allowed hosts). */
const MAX_ISSUERS = 8;

/** The server for `origin` (the configured address by default); they share one database. */
export function authorizationServer(origin: string = issuerOrigin()): AuthorizationServer {
  const servers = (holder.switchboardOauth ??= new Map());
  let server = servers.get(origin);
  if (!server) {
    // With MCP_ALLOWED_HOSTS=* (or a port per request) any Host names an issuer: past the cap a
    // new one is not built (evicting would let a stream of Hosts rebuild the real issuer on
    // every request); it is answered by the configured issuer, whose tokens it does not take.
    if (servers.size >= MAX_ISSUERS && origin !== issuerOrigin()) return authorizationServer();
    server = build(origin);
    servers.set(origin, server);
  }
  return server;
}
