import type { Prisma } from "@/lib/generated/prisma/client";
import { encryptSecret, decryptSecret } from "@/lib/crypto/secret-box";

import { ConnectorAuthInput, HEADERS_AUTH, type ConnectorAuth } from "@/lib/connectors/upstream-auth/auth-schemas";

export * from "@/lib/connectors/upstream-auth/auth-schemas";

/** The stored settings of a row (anything unreadable is `headers`, today's behaviour). */
export function asConnectorAuth(value: Prisma.JsonValue | undefined): ConnectorAuth {
  const v = value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  if (v.type === "oauth" || v.type === "client_credentials") return v as unknown as ConnectorAuth;
  return HEADERS_AUTH;
}

export function isOAuth(auth: ConnectorAuth): auth is Extract<ConnectorAuth, { type: "oauth" }> {
  return auth.type === "oauth";
}

/** The client identity and scopes a connection was made with: a change asks every person to connect again. */
export function clientFingerprint(auth: ConnectorAuth): string {
  if (auth.type === "headers") return "";
  const a = auth as Record<string, unknown>;
  return JSON.stringify([a.type, a.clientId ?? null, [...((a.scopes as string[]) ?? [])].sort(), a.authorizationServer ?? null, a.tokenEndpoint ?? a.tokenUrl ?? null]);
}

/**
 * The columns a create or PATCH writes for `input`. `previousSecret` is kept when the input
 * names no secret and keeps the same auth type (a PATCH that changes scopes, say).
 */
export function authColumns(input: ConnectorAuthInput, connectorType: "http" | "mcp", previous?: { auth: ConnectorAuth; secret: string | null }): { auth: Prisma.InputJsonValue; authSecret: string | null } {
  if (input.type === "headers") return { auth: HEADERS_AUTH as Prisma.InputJsonValue, authSecret: null };
  const { clientSecret, ...settings } = input;
  const keep = previous && previous.auth.type === input.type && clientSecret === undefined ? previous.secret : null;
  const authSecret = clientSecret !== undefined ? encryptSecret(clientSecret) : keep;
  const stored = { ...settings, ...(authSecret ? { hasClientSecret: true } : {}) };
  void connectorType;
  return { auth: stored as Prisma.InputJsonValue, authSecret };
}

/** The plaintext client secret, or undefined. */
export function openClientSecret(sealed: string | null): string | undefined {
  return sealed ? decryptSecret(sealed) : undefined;
}

/** Field errors of an auth that does not fit its connector (the schema cannot see the type). */
export function authFieldErrors(input: ConnectorAuthInput, connectorType: "http" | "mcp", hasStoredSecret: boolean): { path: string; message: string }[] {
  const errors: { path: string; message: string }[] = [];
  if (input.type === "client_credentials" && !input.clientSecret && !hasStoredSecret) errors.push({ path: "auth.clientSecret", message: "client_credentials needs a clientSecret." });
  if (input.type === "oauth" && connectorType === "http") {
    const named = input.authorizationServer !== undefined || (input.authorizationEndpoint !== undefined && input.tokenEndpoint !== undefined);
    if (!named) errors.push({ path: "auth.authorizationServer", message: "An http connector names its authorization server: an issuer with metadata, or authorizationEndpoint and tokenEndpoint." });
  }
  if (input.type === "oauth" && input.clientSecret && !input.clientId) errors.push({ path: "auth.clientId", message: "A clientSecret needs its clientId." });
  return errors;
}
