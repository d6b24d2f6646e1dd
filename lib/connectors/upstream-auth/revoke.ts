import { logger } from "@/lib/log";
import { openConnection } from "@/lib/connectors/upstream-auth/connection-store";
import { limitedFetch } from "@/lib/connectors/upstream-auth/oauth-fetch";
import { describeOAuthFailure } from "@/lib/connectors/upstream-auth/oauth-errors";

/**
 * RFC 7009 revocation of a connection's tokens where the authorization server offers it
 * (`revocation_endpoint` in its metadata): the refresh token (which ends the grant) and the
 * access token. Best effort: the connection is gone on our side whatever the server says.
 * True when the server accepted a revocation.
 */
export async function revokeUpstream(sealed: string): Promise<boolean> {
  let connection;
  try {
    connection = openConnection(sealed);
  } catch {
    return false;
  }
  const endpoint = (connection.discovery?.authorizationServerMetadata as { revocation_endpoint?: string } | undefined)?.revocation_endpoint;
  if (!endpoint) return false;
  const { client, tokens } = connection;
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
  if (client.client_secret) headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`).toString("base64")}`;
  let accepted = false;
  const pairs: [string, string][] = [["refresh_token", tokens.refresh_token ?? ""], ["access_token", tokens.access_token]];
  for (const [hint, token] of pairs) {
    if (!token) continue;
    const body = new URLSearchParams({ token, token_type_hint: hint, ...(client.client_secret ? {} : { client_id: client.client_id }) });
    try {
      const response = await limitedFetch(endpoint, { method: "POST", headers, body });
      accepted ||= response.ok;
    } catch (e) {
      logger.warn({ err: describeOAuthFailure(e) }, "upstream token revocation failed");
    }
  }
  return accepted;
}
