import { db } from "@/lib/db/client";
import { type Caller, INSTANCE_CALLER } from "@/lib/auth/caller";
import { API_KEY_PREFIX, hashApiKey, isInstanceKey } from "@/lib/auth/api-key-secret";
import { setting } from "@/lib/config/settings";
import { consume, getLimiter, peek } from "@/lib/ratelimit/limiter";

/** lastUsedAt is informative; writing it at most once a minute keeps it off the hot path. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Resolves a bearer token to a Caller: the instance credential, or a live user API key
 * (not revoked, not expired — checked on every request, so revocation is immediate).
 */
export async function callerFromBearer(token: string): Promise<Caller | null> {
  if (!token) return null;
  if (isInstanceKey(token)) return INSTANCE_CALLER;
  if (!token.startsWith(API_KEY_PREFIX)) return null;
  const now = new Date();
  const key = await db().apiKey.findFirst({
    where: { hash: hashApiKey(token), revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
    select: { id: true, orgId: true, workspaceId: true, serverId: true, userId: true, lastUsedAt: true },
  });
  if (!key) return null;
  if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    void db()
      .apiKey.updateMany({ where: { id: key.id, orgId: key.orgId }, data: { lastUsedAt: now } })
      .catch(() => undefined);
  }
  return {
    kind: "user",
    userId: key.userId,
    apiKey: { id: key.id, orgId: key.orgId, workspaceId: key.workspaceId, serverId: key.serverId },
  };
}

/** The token of an `Authorization: Bearer …` header, or null. Never read from the query string. */
export function bearerToken(authorization: string | null): string | null {
  const match = authorization?.match(/^Bearer\s+(\S+)\s*$/i);
  return match ? match[1] : null;
}

export type BearerOutcome = { ok: true; caller: Caller } | { ok: false; retryAfterMs: number | null };

/**
 * callerFromBearer for a request from `clientIp`, with a budget of failures per address
 * (BEARER_MAX_FAILURES_PER_IP per BEARER_FAILURE_WINDOW_SEC). Once an address has spent it,
 * every further key from there is refused with a wait (`retryAfterMs`) before any database
 * lookup, so a flood of guessed keys costs neither a query nor a chance to guess. Successful
 * keys spend nothing; the instance credential is checked without the database and never refused.
 */
export async function callerFromBearerFor(token: string, clientIp: string): Promise<BearerOutcome> {
  if (isInstanceKey(token)) return { ok: true, caller: INSTANCE_CALLER };
  const points = setting("BEARER_MAX_FAILURES_PER_IP");
  const durationSec = setting("BEARER_FAILURE_WINDOW_SEC");
  const failures = getLimiter(`bearer-failures:${points}/${durationSec}`, { points, durationSec });
  const open = await peek(failures, clientIp);
  if (!open.ok) return { ok: false, retryAfterMs: open.retryAfterMs };
  const caller = await callerFromBearer(token);
  if (caller) return { ok: true, caller };
  await consume(failures, clientIp);
  return { ok: false, retryAfterMs: null };
}
