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

/**
 * The columns a create or PATCH writes for `input`. `previousSecret` is kept when the input
 * names no secret and keeps the same auth type (a PATCH that changes scopes, say) — but for an
 * `oauth` input only while its client ID is the stored one: a secret belongs to its client, so
 * with the client ID cleared (Switchboard then registers itself) or changed, the old secret is
 * dropped rather than left behind or sent for another client.
 */
export function authColumns(input: ConnectorAuthInput, connectorType: "http" | "mcp", previous?: { auth: ConnectorAuth; secret: string | null }): { auth: Prisma.InputJsonValue; authSecret: string | null } {
  if (input.type === "headers") return { auth: HEADERS_AUTH as Prisma.InputJsonValue, authSecret: null };
  const { clientSecret, ...settings } = input;
  // An oauth secret is kept only for the same client ID: a new or cleared ID drops it.
  const sameClient = input.type !== "oauth" || (input.clientId !== undefined && previous?.auth.type === "oauth" && previous.auth.clientId === input.clientId);
  const keep = previous && previous.auth.type === input.type && clientSecret === undefined && sameClient ? previous.secret : null;
  const authSecret = clientSecret !== undefined ? encryptSecret(clientSecret) : keep;
  const stored = { ...settings, ...(authSecret ? { hasClientSecret: true } : {}) };
  void connectorType;
  return { auth: stored as Prisma.InputJsonValue, authSecret };
}

/** The plaintext client secret, or undefined. */
export function openClientSecret(sealed: string | null): string | undefined {
  return sealed ? decryptSecret(sealed) : undefined;
}
