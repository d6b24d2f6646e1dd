import { limitedFetch } from "@/lib/connectors/upstream-auth/oauth-fetch";
import type { UpstreamCredential } from "@/lib/connectors/upstream-auth/credential";

/**
 * An `http` connector's request with its OAuth or client-credentials token (issue 24 point 4):
 * `Authorization: Bearer …` in place of any secret header of that name (the token owns it),
 * and on a 401 one refresh and one retry. The token rides with the secret headers, so it is
 * sent to the connector's own origin only and scrubbed from answers like them.
 */
export async function sendWithCredential<R extends { status: number }>(
  credential: UpstreamCredential,
  headers: Record<string, string>,
  baseUrl: string,
  send: (headers: Record<string, string>) => Promise<R>,
): Promise<R> {
  if (credential.kind !== "token") return send(headers);
  const { provider } = credential;
  const first = await send(withBearer(headers, await provider.token()));
  if (first.status !== 401 || !provider.onUnauthorized) return first;
  await provider.onUnauthorized({ response: new Response(null, { status: 401 }), serverUrl: new URL(baseUrl), fetchFn: limitedFetch });
  return send(withBearer(headers, await provider.token()));
}

function withBearer(headers: Record<string, string>, token: string | undefined): Record<string, string> {
  const kept = Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== "authorization"));
  return token ? { ...kept, authorization: `Bearer ${token}` } : kept;
}
