import { setting } from "@/lib/config/settings";
import { logger } from "@/lib/log";
import { consume, getLimiter } from "@/lib/ratelimit/limiter";
import { clientIpFromHeaders } from "@/lib/ratelimit/client-ip";

/**
 * Per-client-address budgets of the OAuth endpoints, on the project's own limiter (shared by
 * every instance through Redis when REDIS_URL is set), keyed on the address lib/ratelimit/client-ip.ts
 * finds: the socket's, or — behind a proxy listed in TRUSTED_PROXIES — the one that proxy
 * vouches for. better-auth's own limiter is off (lib/oauth/authorization-server.ts): it could
 * not see the socket, so it shared one bucket per path among every visitor and believed any
 * X-Forwarded-For a client sent.
 *
 * - New clients: dynamic registration and Client ID Metadata Documents create a client row for
 *   anyone who asks, unauthenticated, so each address may create OAUTH_NEW_CLIENTS_PER_IP per
 *   OAUTH_NEW_CLIENTS_WINDOW_SEC (an MCP app registers once per install; a flood is not an app).
 * - Requests: every OAuth endpoint, OAUTH_MAX_PER_IP per minute and address.
 */

const newClients = () => getLimiter("oauth-new-client-ip", { points: setting("OAUTH_NEW_CLIENTS_PER_IP"), durationSec: setting("OAUTH_NEW_CLIENTS_WINDOW_SEC") });
const requests = () => getLimiter("oauth-ip", { points: setting("OAUTH_MAX_PER_IP"), durationSec: 60 });

function tooMany(retryAfterMs: number, description: string): Response {
  return Response.json(
    { error: "too_many_requests", error_description: description },
    { status: 429, headers: { "retry-after": String(Math.max(1, Math.ceil(retryAfterMs / 1000))), "cache-control": "no-store" } },
  );
}

/** The 429 for a request to an OAuth endpoint past its address's budget, or null. */
export async function oauthRequestRefusal(headers: Headers): Promise<Response | null> {
  const budget = await consume(requests(), clientIpFromHeaders(headers));
  return budget.ok ? null : tooMany(budget.retryAfterMs, "Too many OAuth requests from this address; try again later.");
}

/** The 429 for a client registration past its address's budget of new clients, or null (the budget is spent). */
export async function newClientRefusal(headers: Headers): Promise<Response | null> {
  const budget = await consume(newClients(), clientIpFromHeaders(headers));
  return budget.ok ? null : tooMany(budget.retryAfterMs, "Too many new OAuth clients from this address; try again later.");
}

/** For a Client ID Metadata Document: whether its address may create one more client (logged when not). */
export async function mayCreateClient(headers: Headers | undefined, clientId: string): Promise<boolean> {
  const refused = await newClientRefusal(headers ?? new Headers());
  if (refused) logger.info({ clientId }, "Client ID Metadata Document refused: too many new clients from this address");
  return !refused;
}
