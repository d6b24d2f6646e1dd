import type { AuthProvider } from "@modelcontextprotocol/client";

/**
 * The OAuth / client_credentials token an upstream transport sends is as secret as a header:
 * an upstream may quote its Authorization header in an error, a log message or an input
 * request. `witnessTokens` wraps the transport's provider so each token it hands out is added
 * to `headers` (as `authorization: Bearer <token>`), the record the scrubbers redact with
 * (lib/connectors/secret-headers.ts `redactSecrets`: values only, names do not matter).
 */

/** Tokens kept per record: a long-lived connection refreshes; the latest few are what an upstream can quote. */
const KEPT = 4;

/** `provider`, recording every token it hands out into `headers` (mutated in place). */
export function witnessTokens(provider: AuthProvider, headers: Record<string, string>): AuthProvider {
  const seen: string[] = [];
  const record = (token: string | undefined): string | undefined => {
    if (!token || seen.includes(token)) return token;
    seen.push(token);
    headers[`authorization (token ${seen.length})`] = `Bearer ${token}`;
    if (seen.length > KEPT) delete headers[`authorization (token ${seen.length - KEPT})`];
    return token;
  };
  const onUnauthorized = provider.onUnauthorized?.bind(provider);
  return { token: async () => record(await provider.token()), ...(onUnauthorized ? { onUnauthorized } : {}) };
}
