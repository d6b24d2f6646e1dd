import { db } from "@/lib/db/client";
import type { Caller } from "@/lib/auth/caller";
import { ConflictError, NotFoundError, ValidationError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { lookUpTxtRecords } from "@/lib/sso/look-up-txt-records";
import { orgsManagedBy } from "@/lib/tenancy/scopes";
import { assertSsoChangeAllowed, ssoSettingsIn, verificationRecord, type SsoSettingsView } from "@/lib/sso/sso-connections";

/**
 * Proves an organization owns an email domain of its single sign-on: the TXT record at
 * `_switchboard-challenge.<domain>` must carry this claim's token. The first organization to
 * prove a domain holds it; another's pending claim for it is refused when it tries to verify.
 */

function refused(message: string): ValidationError {
  return new ValidationError([{ path: "domain", message }], message);
}

async function pendingClaim(caller: Caller, orgId: string, domain: string) {
  await assertSsoChangeAllowed(db(), caller, orgId);
  const row = await db().ssoDomain.findFirst({ where: { orgId, domain, org: orgsManagedBy(caller) }, select: { verificationToken: true, verifiedAt: true } });
  if (!row) throw new NotFoundError("domain");
  return row;
}

/** Nothing is changed unless the published record carries this claim's token. */
async function assertRecordPublished(domain: string, token: string): Promise<void> {
  const { name, value } = verificationRecord(domain, token);
  const found = await lookUpTxtRecords(name);
  if (!found.ok && found.reason === "unreachable") throw refused(`Could not look up the TXT record at ${name}; try again in a minute.`);
  if (!found.ok || found.records.length === 0) throw refused(`No TXT record found at ${name}. Publish ${value} there (DNS changes can take a few minutes) and try again.`);
  if (!found.records.some((record) => record.trim() === value)) {
    throw refused(`The TXT record found at ${name} does not match. Its value must be exactly ${value}.`);
  }
}

function takenElsewhere(domain: string): ConflictError {
  return new ConflictError(`The domain ${domain} was verified by another organization first and signs in there; remove it from your list.`);
}

export async function verifySsoDomain(caller: Caller, orgId: string, domain: string): Promise<SsoSettingsView> {
  const claim = await pendingClaim(caller, orgId, domain);
  if (claim.verifiedAt) return ssoSettingsIn(db(), orgId);
  const owner = await db().ssoDomain.findFirst({ where: { domain, verifiedAt: { not: null }, orgId: { not: orgId } }, select: { orgId: true } });
  if (owner) throw takenElsewhere(domain);
  await assertRecordPublished(domain, claim.verificationToken);
  try {
    return await db().$transaction(async (tx) => {
      const { count } = await tx.ssoDomain.updateMany({ where: { orgId, domain, org: orgsManagedBy(caller), verificationToken: claim.verificationToken, verifiedAt: null }, data: { verifiedAt: new Date() } });
      if (count === 0) throw new NotFoundError("domain");
      await recordAuditEvent(caller, { orgId, action: "org.sso.domain.verify", targetType: "org", targetId: orgId, data: { domain } }, tx);
      return ssoSettingsIn(tx, orgId);
    });
  } catch (error) {
    // Another organization verified it between the check and now: the unique index among verified domains says so.
    if ((error as { code?: string }).code === "P2002") throw takenElsewhere(domain);
    throw error;
  }
}
