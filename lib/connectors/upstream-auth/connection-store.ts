import { createHash } from "node:crypto";
import type { OAuthDiscoveryState, StoredOAuthClientInformation, StoredOAuthTokens } from "@modelcontextprotocol/client";
import { decryptJson, encryptJson } from "@/lib/crypto/secret-box";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * What a connection keeps, sealed with AES-256-GCM under SECRET_KEY (lib/crypto/secret-box.ts)
 * as the connector's secret headers are: the tokens, and what a refresh needs without asking
 * the upstream again (the client it was made with, the authorization server's metadata, the
 * `resource`). Never returned, logged or audited.
 */
export interface SealedConnection {
  tokens: StoredOAuthTokens;
  client: StoredOAuthClientInformation;
  discovery?: OAuthDiscoveryState;
  resource?: string;
  /** The upstream URL the connection was made for: its tokens go to that origin only (credential.ts). */
  madeFor?: string;
  /** clientFingerprint(auth) when it was made: a connector whose client or scopes changed asks again. */
  madeWith: string;
  /** The scope an upstream's 403 insufficient_scope asked for (step-up): the next connect asks for it too. */
  stepUpScope?: string;
}

/** What a connection attempt keeps between the start and the callback. */
export interface SealedStart {
  verifier: string;
  redirectUri: string;
  client: StoredOAuthClientInformation;
  discovery?: OAuthDiscoveryState;
  scope?: string;
  returnTo?: string;
  serverUrl: string;
  madeWith: string;
}

export const sealConnection = (value: SealedConnection): string => encryptJson(value);
export const openConnection = (sealed: string): SealedConnection => decryptJson<SealedConnection>(sealed);
export const sealStart = (value: SealedStart): string => encryptJson(value);
export const openStart = (sealed: string): SealedStart => decryptJson<SealedStart>(sealed);

/** Only the digest of a `state` is stored: a database read gives nobody a usable state. */
export function stateHash(state: string): string {
  return createHash("sha256").update(state).digest("hex");
}

/** The slot of a connection: the person for `per_user`, `shared` for the connector's one. */
export function slotOf(connection: "per_user" | "shared", userId: string): string {
  return connection === "shared" ? "shared" : userId;
}

/** When the access token ends, from `expires_in` (seconds); null when the server said nothing. */
export function expiryOf(tokens: StoredOAuthTokens, now = Date.now()): Date | null {
  return typeof tokens.expires_in === "number" ? new Date(now + tokens.expires_in * 1000) : null;
}

export function scopesOf(tokens: StoredOAuthTokens, asked?: string): string[] {
  return (tokens.scope ?? asked ?? "").split(" ").filter(Boolean);
}

/** Registrations the connector keeps (dynamic registration, per redirect URI and authorization server). */
export interface ClientState {
  registrations?: Record<string, StoredOAuthClientInformation>;
}

export function openClientState(sealed: string | null): ClientState {
  if (!sealed) return {};
  try {
    return decryptJson<ClientState>(sealed);
  } catch {
    return {}; // unreadable (another SECRET_KEY): register again
  }
}

export function sealClientState(state: ClientState): string {
  return encryptJson(state);
}

export type Tx = Prisma.TransactionClient;
