import type { Prisma } from "@/lib/generated/prisma/client";
import type { Caller } from "@/lib/auth/caller";
import { UnauthorizedError } from "@/lib/errors";

type Tx = Prisma.TransactionClient;

/**
 * Revokes these keys of `orgId` and every key they issued, and the keys those issued, down the
 * whole line (`issued_by_key_id`): a key handed out by a key stops with it. Returns how many keys
 * it revoked. The caller bumps the organization's configuration version in the same transaction,
 * which is what makes every instance drop the keys it had resolved (lib/auth/resolve-bearer.ts)
 * on their next request.
 *
 * The line is locked before it is revoked, and locked again until it stops growing: a key issuing
 * a key holds its own row (lockIssuingKey), so a key written while this waited is seen by the next
 * look, and once every key of the line is held here none can issue another.
 */
export async function revokeKeysAndDescendants(tx: Tx, orgId: string, keyIds: string[]): Promise<number> {
  if (keyIds.length === 0) return 0;
  let line: string[] = [];
  for (;;) {
    const locked = await tx.$queryRaw<{ id: string }[]>`
      WITH RECURSIVE line(id) AS (
        SELECT id FROM api_keys WHERE org_id = ${orgId} AND id = ANY(${keyIds}::text[])
        UNION
        SELECT k.id FROM api_keys k JOIN line ON k.issued_by_key_id = line.id WHERE k.org_id = ${orgId}
      )
      SELECT id FROM api_keys WHERE org_id = ${orgId} AND id IN (SELECT id FROM line) ORDER BY id FOR UPDATE`;
    if (locked.length === line.length) break;
    line = locked.map((row) => row.id);
  }
  const { count } = await tx.apiKey.updateMany({ where: { orgId, id: { in: line }, revokedAt: null }, data: { revokedAt: new Date() } });
  return count;
}

/**
 * A key that issues a key must still be live when the new key is written: its row is locked (a
 * concurrent revocation waits for this transaction, and then revokes the new key too, or this one
 * waits for it and finds the issuer revoked: 401). Null for a caller that is not a key.
 */
export async function lockIssuingKey(tx: Tx, caller: Caller): Promise<string | null> {
  if (caller.kind !== "user" || !caller.apiKey || caller.oauthClient) return null;
  const { id, orgId } = caller.apiKey;
  const live = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM api_keys WHERE id = ${id} AND org_id = ${orgId} AND revoked_at IS NULL FOR UPDATE`;
  if (live.length === 0) throw new UnauthorizedError("The bearer credential is not valid (unknown, revoked or expired).");
  return id;
}
