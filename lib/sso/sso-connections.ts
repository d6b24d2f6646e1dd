import { assertOrgManaged } from "@/lib/connectors/managed-connector";
import { randomBytes } from "node:crypto";
import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Caller } from "@/lib/auth/caller";
import { ConflictError, NotFoundError, ValidationError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { encryptSecret } from "@/lib/crypto/secret-box";
import { issuerOrigin } from "@/lib/oauth/authorization-server";
import type { PutSsoBody } from "@/lib/sso/schemas";
import { assertOwnerCaller } from "@/lib/orgs/member-guards";

/**
 * The organization's single sign-on settings (issue 13 point 6): admins read them, only owners
 * (and the instance credential) change them. The org's provider speaks for the people of its
 * domains, so whoever configures it could otherwise sign in as one of them, an owner included.
 */

export const SSO_OWNER_ONLY = "Only an owner of the organization can change its single sign-on.";

/** A manager of the org (404 otherwise, as for a missing org) who is also its owner (403 otherwise). */
export async function assertSsoChangeAllowed(tx: Prisma.TransactionClient, caller: Caller, orgId: string): Promise<void> {
  await assertOrgManaged(tx, caller, orgId);
  await assertOwnerCaller(tx, caller, orgId, SSO_OWNER_ONLY);
}

export const SSO_CALLBACK_PATH = "/api/auth/sso/callback";

/**
 * The redirect URI an organization registers at its identity provider: one for every org, on
 * `origin` (PUBLIC_URL, else the address the person's browser used; without one, the configured
 * address). Without PUBLIC_URL each address people use (`localhost`, `127.0.0.1`, a LAN name)
 * is a callback of its own to register.
 */
export function ssoRedirectUri(origin: string = issuerOrigin()): string {
  return `${origin}${SSO_CALLBACK_PATH}`;
}

const connectionSelect = {
  orgId: true,
  issuer: true,
  clientId: true,
  joinNewUsers: true,
  acceptEmailWithoutVerifiedClaim: true,
  enabled: true,
  createdAt: true,
  updatedAt: true,
  domains: { select: { domain: true, verificationToken: true, verifiedAt: true }, orderBy: { domain: "asc" } },
} as const satisfies Prisma.SsoConnectionSelect;

type ConnectionRow = Prisma.SsoConnectionGetPayload<{ select: typeof connectionSelect }>;

export interface SsoSettingsView {
  orgId: string;
  issuer: string;
  clientId: string;
  clientSecretSet: boolean;
  domains: string[];
  domainVerifications: SsoDomainVerificationView[];
  joinNewUsers: boolean;
  acceptEmailWithoutVerifiedClaim: boolean;
  enabled: boolean;
  redirectUri: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface SsoDomainVerificationView {
  domain: string;
  status: "unverified" | "verified";
  verifiedAt: Date | null;
  record: { type: "TXT"; name: string; value: string };
}

/** The record an organization publishes to prove it owns `domain`. */
export function verificationRecord(domain: string, token: string): SsoDomainVerificationView["record"] {
  return { type: "TXT", name: `_switchboard-challenge.${domain}`, value: `switchboard-domain-verification=${token}` };
}

function view(row: ConnectionRow): SsoSettingsView {
  const { domains, ...rest } = row;
  const domainVerifications = domains.map((d) => ({
    domain: d.domain,
    status: d.verifiedAt ? ("verified" as const) : ("unverified" as const),
    verifiedAt: d.verifiedAt,
    record: verificationRecord(d.domain, d.verificationToken),
  }));
  return { ...rest, clientSecretSet: true, domains: domains.map((d) => d.domain), domainVerifications, redirectUri: ssoRedirectUri() };
}

/** The org's settings inside a transaction that has just changed them. */
export async function ssoSettingsIn(tx: Prisma.TransactionClient, orgId: string): Promise<SsoSettingsView> {
  return view(await tx.ssoConnection.findFirstOrThrow({ where: { orgId }, select: connectionSelect }));
}

/** The org's connection, or null when it has none (a page shows an empty form then). */
export async function findOrgSso(caller: Caller, orgId: string): Promise<SsoSettingsView | null> {
  await assertOrgManaged(db(), caller, orgId);
  const row = await db().ssoConnection.findFirst({ where: { orgId }, select: connectionSelect });
  return row ? view(row) : null;
}

export async function getOrgSso(caller: Caller, orgId: string): Promise<SsoSettingsView> {
  const found = await findOrgSso(caller, orgId);
  if (!found) throw new NotFoundError("single sign-on");
  return found;
}

/** A pending claim blocks nobody; a domain another organization has verified is theirs. */
async function assertDomainsFree(tx: Prisma.TransactionClient, orgId: string, domains: string[]): Promise<void> {
  const taken = await tx.ssoDomain.findFirst({ where: { domain: { in: domains }, orgId: { not: orgId }, verifiedAt: { not: null } }, select: { domain: true } });
  if (taken) throw new ConflictError(`The domain ${taken.domain} is verified by another organization and signs in there; remove it from the list.`);
}

/** Domains kept keep their token and verification; removed ones go; new ones start unverified. */
async function replaceDomains(tx: Prisma.TransactionClient, orgId: string, connectionId: string, domains: string[]): Promise<void> {
  await tx.ssoDomain.deleteMany({ where: { orgId, domain: { notIn: domains } } });
  await tx.ssoDomain.updateMany({ where: { orgId }, data: { connectionId } });
  const token = () => randomBytes(16).toString("hex");
  await tx.ssoDomain.createMany({ data: domains.map((domain) => ({ domain, orgId, connectionId, verificationToken: token() })), skipDuplicates: true });
}

export async function putOrgSso(caller: Caller, orgId: string, input: PutSsoBody): Promise<SsoSettingsView> {
  const domains = [...new Set(input.domains)];
  return db().$transaction(async (tx) => {
    await assertSsoChangeAllowed(tx, caller, orgId);
    const existing = await tx.ssoConnection.findFirst({ where: { orgId }, select: { id: true } });
    if (!existing && !input.clientSecret) {
      throw new ValidationError([{ path: "clientSecret", message: "The client secret is required to set up single sign-on." }]);
    }
    await assertDomainsFree(tx, orgId, domains);
    const fields = { issuer: input.issuer, clientId: input.clientId, joinNewUsers: input.joinNewUsers, enabled: input.enabled, acceptEmailWithoutVerifiedClaim: input.acceptEmailWithoutVerifiedClaim };
    const secret = input.clientSecret ? { clientSecretEncrypted: encryptSecret(input.clientSecret) } : {};
    const connection = existing
      ? await tx.ssoConnection.update({ where: { orgId, id: existing.id }, data: { ...fields, ...secret }, select: { id: true } })
      : await tx.ssoConnection.create({ data: { orgId, ...fields, clientSecretEncrypted: encryptSecret(input.clientSecret!) }, select: { id: true } });
    await replaceDomains(tx, orgId, connection.id, domains);
    const data = { ...fields, domains, clientSecretChanged: Boolean(input.clientSecret) };
    await recordAuditEvent(caller, { orgId, action: existing ? "org.sso.update" : "org.sso.create", targetType: "org", targetId: orgId, data }, tx);
    return ssoSettingsIn(tx, orgId);
  });
}

export async function deleteOrgSso(caller: Caller, orgId: string): Promise<void> {
  await db().$transaction(async (tx) => {
    await assertSsoChangeAllowed(tx, caller, orgId);
    const { count } = await tx.ssoConnection.deleteMany({ where: { orgId } });
    if (count === 0) throw new NotFoundError("single sign-on");
    await recordAuditEvent(caller, { orgId, action: "org.sso.delete", targetType: "org", targetId: orgId }, tx);
  });
}
