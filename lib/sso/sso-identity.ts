import { db } from "@/lib/db/client";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";

/**
 * Who a verified identity from an organization's provider is here. "New users join the org as
 * members on first sign-in, or are refused — the org's choice." An existing account signs in
 * only if it is already a member of that organization (else the org's provider could speak for
 * people of other organizations), never the instance owner ("Password sign-in stays for the
 * instance owner"), and once linked only with the same subject (`sub`) at that provider. A
 * subject already linked is that account whatever email it now comes with (people are renamed at
 * their provider): it never gets a second account, nor another person's.
 *
 * Linking an existing account to a subject for the first time trusts the provider's word for the
 * email, and whoever configured the provider chose that word. So it is refused for an owner of
 * the organization and for a member of any other organization: a session is the whole account,
 * and the org's provider would otherwise let its admin (or its provider) become such a person
 * everywhere they belong. Those people sign in the way they did before.
 */

export interface SsoIdentity {
  subject: string;
  email: string;
  name: string | null;
}

export interface SsoOrgConnection {
  id: string;
  orgId: string;
  joinNewUsers: boolean;
}

export type SsoUserResult = { ok: true; userId: string } | { ok: false; code: "SsoNotMember" | "SsoLinkRefused" | "SsoFailed" };

const providerIdOf = (connection: SsoOrgConnection) => `sso:${connection.id}`;

async function joinAsNewMember(connection: SsoOrgConnection, identity: SsoIdentity): Promise<string> {
  return db().$transaction(async (tx) => {
    const user = await tx.user.create({ data: { email: identity.email, name: identity.name, emailVerified: true }, select: { id: true } });
    await tx.orgMember.create({ data: { orgId: connection.orgId, userId: user.id, role: "member" } });
    await tx.account.create({ data: { userId: user.id, providerId: providerIdOf(connection), accountId: identity.subject } });
    await recordAuditEvent({ kind: "user", userId: user.id, apiKey: null }, { orgId: connection.orgId, action: "member.join_sso", targetType: "user", targetId: user.id, data: { email: identity.email } }, tx);
    return user.id;
  });
}

type Db = Pick<ReturnType<typeof db>, "orgMember">;

/** An owner here, or a member of another organization: such an account is never linked by SSO. */
async function mayNotBeLinked(client: Db, connection: SsoOrgConnection, userId: string, role: string): Promise<boolean> {
  if (role === "owner") return true;
  return belongsElsewhere(client, connection, userId);
}

async function belongsElsewhere(client: Db, connection: SsoOrgConnection, userId: string): Promise<boolean> {
  return (await client.orgMember.count({ where: { userId, orgId: { not: connection.orgId } } })) > 0;
}

/**
 * Links the account to the subject, checking the rule again inside the transaction, with the
 * account's row locked: a membership added meanwhile is seen, and two sign-ins never link twice.
 */
async function linkOnce(connection: SsoOrgConnection, userId: string, subject: string): Promise<SsoUserResult> {
  return db().$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`;
    const member = await tx.orgMember.findFirst({ where: { orgId: connection.orgId, userId }, select: { role: true } });
    if (!member) return { ok: false, code: "SsoNotMember" } as const;
    const link = await tx.account.findFirst({ where: { userId, providerId: providerIdOf(connection) }, select: { accountId: true } });
    if (link) return link.accountId === subject ? { ok: true, userId } : ({ ok: false, code: "SsoFailed" } as const);
    if (await mayNotBeLinked(tx, connection, userId, member.role)) return { ok: false, code: "SsoLinkRefused" } as const;
    await tx.account.create({ data: { userId, providerId: providerIdOf(connection), accountId: subject } });
    return { ok: true, userId };
  });
}

/**
 * An existing account: a member of the org, linked to this subject (linked now if never yet and
 * allowed). A linked account that has a password and now also belongs to another organization
 * is refused: the link was made when only this org's provider spoke for it, and a session is the
 * whole account. An account this provider made (no password: the provider is its only way in)
 * keeps signing in wherever it was invited since — those orgs invited this provider's person.
 */
async function existingMember(connection: SsoOrgConnection, user: { id: string; isInstanceOwner: boolean; passwordHash: string | null }, subject: string): Promise<SsoUserResult> {
  if (user.isInstanceOwner) return { ok: false, code: "SsoLinkRefused" };
  const member = await db().orgMember.findFirst({ where: { orgId: connection.orgId, userId: user.id }, select: { role: true } });
  if (!member) return { ok: false, code: "SsoNotMember" };
  const link = await db().account.findFirst({ where: { userId: user.id, providerId: providerIdOf(connection) }, select: { accountId: true } });
  if (link && link.accountId !== subject) return { ok: false, code: "SsoFailed" };
  if (!link) return linkOnce(connection, user.id, subject);
  if (user.passwordHash && (await belongsElsewhere(db(), connection, user.id))) return { ok: false, code: "SsoLinkRefused" };
  return { ok: true, userId: user.id };
}

export async function userForSsoIdentity(connection: SsoOrgConnection, identity: SsoIdentity): Promise<SsoUserResult> {
  const linked = await db().account.findFirst({
    where: { providerId: providerIdOf(connection), accountId: identity.subject },
    orderBy: { createdAt: "asc" },
    select: { user: { select: { id: true, isInstanceOwner: true, passwordHash: true } } },
  });
  if (linked) return existingMember(connection, linked.user, identity.subject);
  const user = await db().user.findFirst({
    where: { email: { equals: identity.email, mode: "insensitive" } },
    select: { id: true, isInstanceOwner: true, passwordHash: true },
  });
  if (user) return existingMember(connection, user, identity.subject);
  if (!connection.joinNewUsers) return { ok: false, code: "SsoNotMember" };
  return { ok: true, userId: await joinAsNewMember(connection, identity) };
}
