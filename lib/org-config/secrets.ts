import type { Prisma } from "@/lib/generated/prisma/client";
import type { Caller } from "@/lib/auth/caller";
import { db } from "@/lib/db/client";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { SecretName } from "@/lib/org-config/schemas";
import { orgsManagedBy } from "@/lib/tenancy/scopes";
import { assertMay } from "@/lib/permissions/guards";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { decryptSecret, encryptSecret } from "@/lib/crypto/secret-box";
import { logger } from "@/lib/log";

/**
 * The organization's secrets that configuration documents reference as `${secret:NAME}`.
 * Write-only: sealed like connector secret headers (lib/crypto/secret-box.ts), never answered;
 * an apply copies the resolved value into the object's own encrypted secret, so changing one
 * here takes effect with the next apply.
 */

type Tx = Pick<Prisma.TransactionClient, "orgSecret">;

/**
 * Sets (or replaces) a secret of an organization the caller manages, audited by name. A secret
 * ends up in connectors' headers at the next apply, so setting one takes what changing a
 * connector takes (connectors.manage, which a key pinned to one MCP server lacks: it may not
 * apply a document either).
 */
export async function putOrgSecret(caller: Caller, orgId: string, name: string, value: string): Promise<void> {
  const named = SecretName.safeParse(name);
  if (!named.success) throw new ValidationError([{ path: "name", message: `"${name.slice(0, 200)}" cannot be a secret's name: ${named.error.issues[0].message}` }]);
  const org = await db().organization.findFirst({ where: { id: orgId, AND: [orgsManagedBy(caller)] }, select: { id: true } });
  if (!org) throw new NotFoundError("organization");
  await assertMay(db(), caller, orgId, "connectors.manage");
  const sealed = encryptSecret(value);
  await db().$transaction(async (tx) => {
    await tx.orgSecret.upsert({ where: { orgId_name: { orgId, name } }, create: { orgId, name, value: sealed }, update: { value: sealed } });
    await recordAuditEvent(caller, { orgId, action: "org.secret.set", targetType: "org", targetId: orgId, data: { name } }, tx);
  });
}

/** The organization's secrets in plaintext, by name (those that cannot be opened are left out). */
export async function readOrgSecrets(tx: Tx, orgId: string): Promise<Map<string, string>> {
  const rows = await tx.orgSecret.findMany({ where: { orgId }, select: { name: true, value: true } });
  const secrets = new Map<string, string>();
  for (const row of rows) {
    try {
      secrets.set(row.name, decryptSecret(row.value));
    } catch {
      logger.warn({ orgId, secret: row.name }, "organization secret cannot be decrypted");
    }
  }
  return secrets;
}

/** `value` with every `${secret:NAME}` replaced, or null when one of them is not set. */
export function resolveSecretReferences(value: string, secrets: Map<string, string>): string | null {
  let unresolved = false;
  const resolved = value.replace(/\$\{secret:([^}]*)\}/g, (_, name: string) => {
    const secret = secrets.get(name);
    if (secret === undefined) unresolved = true;
    return secret ?? "";
  });
  return unresolved ? null : resolved;
}
