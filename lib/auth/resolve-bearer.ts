import { LRUCache } from "lru-cache";
import { readCurrentVersion, type VersionsSeen } from "@/lib/config-version/read-current-version";
import { db } from "@/lib/db/client";
import { type Caller, INSTANCE_CALLER } from "@/lib/auth/caller";
import { API_KEY_PREFIX, hashApiKey, isInstanceKey } from "@/lib/auth/api-key-secret";
import { setting } from "@/lib/config/settings";
import { consume, getLimiter, peek } from "@/lib/ratelimit/limiter";
import { processState } from "@/lib/process-state";

/** lastUsedAt is informative; writing it at most once a minute keeps it off the hot path. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Resolved API keys, by hash, each labelled with its org's configuration version when it was
 * found live. Revoking or deleting a key (and with it the keys it issued) bumps that version —
 * a key and every key it issued are of one organization — and every use reads the current
 * version first (one batched query, lib/config-version/read-current-version.ts), so a revoked
 * key is refused on its next request on every instance while a live key costs no lookup.
 */
interface ResolvedKey {
  caller: Caller & { kind: "user" };
  version: number;
  expiresAt: number | null;
  lastUsedWrittenAt: number;
}

const globalForKeys = processState<{ switchboardResolvedKeys?: LRUCache<string, ResolvedKey> }>();
const resolvedKeys = (globalForKeys.switchboardResolvedKeys ??= new LRUCache({ max: 20_000 }));

/**
 * Resolves a bearer token to a Caller: the instance credential, or a live user API key
 * (not revoked, not expired — checked on every request, so revocation is immediate).
 */
export async function callerFromBearer(token: string, seen?: VersionsSeen): Promise<Caller | null> {
  if (!token) return null;
  if (isInstanceKey(token)) return INSTANCE_CALLER;
  if (!token.startsWith(API_KEY_PREFIX)) return null;
  return (await knownKeyCaller(token, seen)) ?? resolveKey(hashApiKey(token), seen);
}

/** The caller of a key found live before, if it still is (expiry and the org's version checked); else null. */
async function knownKeyCaller(token: string, seen?: VersionsSeen): Promise<Caller | null> {
  if (!token.startsWith(API_KEY_PREFIX)) return null;
  const hash = hashApiKey(token);
  const known = resolvedKeys.get(hash);
  if (!known) return null;
  const now = Date.now();
  if ((known.expiresAt === null || known.expiresAt > now) && (await readCurrentVersion(known.caller.apiKey!.orgId, seen)) === known.version) {
    if (now - known.lastUsedWrittenAt > LAST_USED_RESOLUTION_MS) recordUse(known, now);
    return known.caller;
  }
  resolvedKeys.delete(hash);
  return null;
}

const liveKey = (now: Date) => ({ revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] });

async function resolveKey(hash: string, seen?: VersionsSeen): Promise<Caller | null> {
  const key = await db().apiKey.findFirst({
    where: { hash, ...liveKey(new Date()) },
    select: { id: true, orgId: true, workspaceId: true, serverId: true, userId: true, lastUsedAt: true, expiresAt: true, maxRole: true },
  });
  if (!key) return null;
  const expiresAt = key.expiresAt?.getTime() ?? null;
  const caller = {
    kind: "user" as const,
    userId: key.userId,
    apiKey: { id: key.id, orgId: key.orgId, workspaceId: key.workspaceId, serverId: key.serverId, expiresAt, maxRole: key.maxRole },
  };
  const entry: ResolvedKey = { caller, version: 0, expiresAt, lastUsedWrittenAt: key.lastUsedAt?.getTime() ?? 0 };
  if (Date.now() - entry.lastUsedWrittenAt > LAST_USED_RESOLUTION_MS) recordUse(entry, Date.now());
  // Remembered only at a version read after the key was found and then found live again: a
  // revocation committed before that read is seen by the second look, one after it bumps
  // the version past the label.
  const version = await readCurrentVersion(key.orgId, seen);
  const stillLive = (await db().apiKey.count({ where: { id: key.id, orgId: key.orgId, ...liveKey(new Date()) } })) === 1;
  if (!stillLive || version === null) return null; // revoked (or its org deleted) while it was being resolved
  resolvedKeys.set(hash, { ...entry, version });
  return caller;
}

/** lastUsedAt is informative: written in the background, at most once a minute per key. */
function recordUse(entry: ResolvedKey, now: number): void {
  entry.lastUsedWrittenAt = now;
  const { id, orgId } = entry.caller.apiKey!;
  void db()
    // A key revoked meanwhile keeps its last use (a request may have assumed an older configuration version).
    .apiKey.updateMany({ where: { id, orgId, revokedAt: null }, data: { lastUsedAt: new Date(now) } })
    .catch(() => undefined);
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
 * keys spend nothing; the instance credential is checked without the database and never refused,
 * nor is a key already known to be live (it is no guess). `clientIp` may be a function, called
 * only then: a known key's request needs no address.
 */
export async function callerFromBearerFor(token: string, clientIp: string | (() => string), seen?: VersionsSeen): Promise<BearerOutcome> {
  if (isInstanceKey(token)) return { ok: true, caller: INSTANCE_CALLER };
  const known = await knownKeyCaller(token, seen);
  if (known) return { ok: true, caller: known };
  const points = setting("BEARER_MAX_FAILURES_PER_IP");
  const durationSec = setting("BEARER_FAILURE_WINDOW_SEC");
  const failures = getLimiter(`bearer-failures:${points}/${durationSec}`, { points, durationSec });
  const ip = typeof clientIp === "function" ? clientIp() : clientIp;
  const open = await peek(failures, ip);
  if (!open.ok) return { ok: false, retryAfterMs: open.retryAfterMs };
  const caller = await callerFromBearer(token, seen);
  if (caller) return { ok: true, caller };
  await consume(failures, ip);
  return { ok: false, retryAfterMs: null };
}
