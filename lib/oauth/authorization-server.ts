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

/**
 * SPIKE (issue 13 points 2 and 5): the OAuth 2.1 authorization server for MCP clients, on
 * better-auth 1.7.5 + @better-auth/oauth-provider with its Prisma adapter over our Prisma 7
 * client (driver adapter, no native engine). Mounted under OAUTH_BASE_PATH; its sessions are
 * also the admin console's (lib/auth/people-auth-options.ts). The issuer is the instance origin, so its RFC 8414 document is
 * the root `/.well-known/oauth-authorization-server` that protected-resource metadata points to.
 */

export const OAUTH_BASE_PATH = "/api/oauth";

/**
 * The authorization server runs only when switched on (OAUTH_ENABLED) and with PUBLIC_URL set:
 * tokens carry the issuer and the endpoint URLs they are bound to, so both must be one fixed
 * public address, not whatever Host a request named. Otherwise OAuth clients find no
 * authorization server (a JSON 404) and stop.
 */
export function oauthEnabled(): boolean {
  return setting("OAUTH_ENABLED") && Boolean(setting("PUBLIC_URL"));
}

/** The issuer: PUBLIC_URL (localhost:PORT only for code that runs while OAuth is off). */
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
const holder = globalThis as unknown as { switchboardOauth?: { origin: string; server: AuthorizationServer } };

/** The server for the current issuer (rebuilt when PUBLIC_URL changes, as tests do). */
export function authorizationServer(): AuthorizationServer {
  const origin = issuerOrigin();
  if (holder.switchboardOauth?.origin !== origin) holder.switchboardOauth = { origin, server: build(origin) };
  return holder.switchboardOauth.server;
}
