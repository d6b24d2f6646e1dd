import { limitedFetch } from "@/lib/connectors/upstream-auth/oauth-fetch";
import type { UpstreamCredential } from "@/lib/connectors/upstream-auth/credential";
import { stepUpAsked } from "@/lib/connectors/upstream-auth/step-up";

/** The API answered 403 insufficient_scope to a person's (or the shared) connection: nothing usable came back. */
export class StepUpRequired extends Error {
  constructor(
    readonly connectionId: string,
    readonly scope: string | undefined,
  ) {
    super("the upstream asked for a wider scope");
    this.name = "StepUpRequired";
  }
}

/**
 * An `http` connector's request with its OAuth or client-credentials token (issue 24 point 4):
 * `Authorization: Bearer …` in place of any secret header of that name (the token owns it),
 * and on a 401 one refresh and one retry. The token rides with the secret headers, so it is
 * sent to the connector's own origin only and scrubbed from answers like them. A 403
 * `insufficient_scope` on a person's (or the shared) connection is a step-up (point 2):
 * StepUpRequired is thrown, and the caller marks the connection and answers (afterStepUp).
 */
export async function sendWithCredential<R extends { status: number; wwwAuthenticate?: string }>(
  credential: UpstreamCredential,
  headers: Record<string, string>,
  target: { baseUrl: string; orgId: string },
  send: (headers: Record<string, string>) => Promise<R>,
): Promise<R> {
  if (credential.kind !== "token") return send(headers);
  const { provider } = credential;
  let answer = await send(withBearer(headers, await provider.token()));
  if (answer.status === 401 && provider.onUnauthorized) {
    await provider.onUnauthorized({ response: new Response(null, { status: 401 }), serverUrl: new URL(target.baseUrl), fetchFn: limitedFetch });
    answer = await send(withBearer(headers, await provider.token()));
  }
  // A machine (client_credentials) token has no person to widen it: its 403 stays an ordinary answer.
  const asked = credential.connectionId ? stepUpAsked(answer.status, answer.wwwAuthenticate) : null;
  if (asked && credential.connectionId) throw new StepUpRequired(credential.connectionId, asked.scope);
  return answer;
}

function withBearer(headers: Record<string, string>, token: string | undefined): Record<string, string> {
  const kept = Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== "authorization"));
  return token ? { ...kept, authorization: `Bearer ${token}` } : kept;
}
