import { LRUCache } from "lru-cache";
import type { Caller } from "@/lib/auth/caller";
import { readCurrentVersion, type VersionsSeen } from "@/lib/config-version/read-current-version";
import { db } from "@/lib/db/client";
import { processState } from "@/lib/process-state";

/**
 * An OAuth access token → the caller an API key of its user would be: the grant chosen on the
 * consent page gives the workspace, the pin (a `/mcp/<serverId>` grant) and the servers a
 * `/mcp` grant may reach, so visibility, rate limits and audit are exactly an API key's. As for
 * API keys (lib/auth/resolve-bearer.ts), a grant found live is remembered labelled with its
 * org's configuration version; revoking one bumps that version in the same transaction, so the
 * next request on every instance looks again and is refused.
 */

/** API-key-like ids of grants: never an api_keys row (live-watch and audit tell them apart). */
export const GRANT_KEY_PREFIX = "oauth:";

/** lastUsedAt is informative: written at most once a minute per grant, off the hot path. */
const LAST_USED_RESOLUTION_MS = 60_000;

interface ResolvedGrant {
  caller: Caller & { kind: "user" };
  orgId: string;
  grantId: string;
  version: number;
  /** When the grant was last allowed (seconds): tokens issued before are not its own. */
  allowedAtSec: number;
  lastUsedWrittenAt: number;
}

const holder = processState<{ switchboardResolvedGrants?: LRUCache<string, ResolvedGrant> }>();
const resolved = (holder.switchboardResolvedGrants ??= new LRUCache({ max: 20_000 }));

export interface TokenSubject {
  sub: string;
  clientId: string;
  /** The token's `iat` (seconds): a token issued before its grant was last allowed is not the grant's. */
  issuedAt?: number;
}

/**
 * Whether the token was issued under the grant as it stands: allowing an app again (after a
 * revocation, a password change) resets the grant's `createdAt`, and an access token of the
 * revoked grant — still unexpired, perhaps held by whoever made the person revoke it — must not
 * come back to life with it.
 */
const issuedUnder = (subject: TokenSubject, allowedAtSec: number) => subject.issuedAt === undefined || subject.issuedAt >= allowedAtSec;

/** The caller of a verified token for `resource` (its audience), or null when no live grant backs it. */
export async function callerOfGrant(subject: TokenSubject, resource: string, seen?: VersionsSeen): Promise<Caller | null> {
  const cacheKey = `${subject.clientId}|${subject.sub}|${resource}`;
  const known = resolved.get(cacheKey);
  if (known && (await readCurrentVersion(known.orgId, seen)) === known.version) {
    if (!issuedUnder(subject, known.allowedAtSec)) return null;
    recordUse(known);
    return known.caller;
  }
  resolved.delete(cacheKey);
  const grant = await findLiveGrant(subject, resource);
  if (!grant) return null;
  const allowedAtSec = Math.floor(grant.createdAt.getTime() / 1000);
  if (!issuedUnder(subject, allowedAtSec)) return null;
  // Remembered only at a version read after the grant was found and then found live again (a
  // revocation committed before the read is seen by the second look, one after it moves the version).
  const version = await readCurrentVersion(grant.orgId, seen);
  if (version === null || !(await findLiveGrant(subject, resource))) return null;
  const caller = {
    kind: "user" as const,
    userId: grant.userId,
    apiKey: {
      id: `${GRANT_KEY_PREFIX}${grant.id}`,
      orgId: grant.orgId,
      workspaceId: grant.workspaceId,
      serverId: grant.serverId,
      ...(grant.serverId ? {} : { serverIds: grant.serverIds }),
    },
    oauthClient: { clientId: grant.clientId, name: grant.client.name || grant.clientId },
  };
  const entry = { caller, orgId: grant.orgId, grantId: grant.id, version, allowedAtSec, lastUsedWrittenAt: grant.lastUsedAt?.getTime() ?? 0 };
  recordUse(entry);
  resolved.set(cacheKey, entry);
  return caller;
}

function findLiveGrant(subject: TokenSubject, resource: string) {
  return db().oauthGrant.findFirst({
    where: { clientId: subject.clientId, userId: subject.sub, resource, revokedAt: null },
    select: { id: true, orgId: true, workspaceId: true, userId: true, clientId: true, serverId: true, serverIds: true, lastUsedAt: true, createdAt: true, client: { select: { name: true } } },
  });
}

function recordUse(entry: ResolvedGrant): void {
  const now = Date.now();
  if (now - entry.lastUsedWrittenAt <= LAST_USED_RESOLUTION_MS) return;
  entry.lastUsedWrittenAt = now;
  void db()
    // A grant revoked meanwhile keeps its last use (a request may have assumed an older configuration version).
    .oauthGrant.updateMany({ where: { id: entry.grantId, orgId: entry.orgId, revokedAt: null }, data: { lastUsedAt: new Date(now) } })
    .catch(() => undefined);
}

/** Of these grant key ids (`oauth:<id>`), the ones still live: open streams of the others end. */
export async function usableGrantKeyIds(keyIds: string[]): Promise<Set<string>> {
  const ids = keyIds.filter((id) => id.startsWith(GRANT_KEY_PREFIX)).map((id) => id.slice(GRANT_KEY_PREFIX.length));
  if (ids.length === 0) return new Set();
  const rows = await db().oauthGrant.findMany({ where: { id: { in: ids }, revokedAt: null }, select: { id: true } });
  return new Set(rows.map((r) => `${GRANT_KEY_PREFIX}${r.id}`));
}
