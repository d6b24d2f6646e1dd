import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { logger } from "@/lib/log";
import { hashPassword } from "@/lib/auth/password";
import { normalizeEmail } from "@/lib/auth/password-sign-in";
import { setting } from "@/lib/config/settings";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";

/**
 * First run: the very first account becomes the instance owner, owner of a "Default"
 * organization with a "Default" workspace. Only possible while no user exists.
 */

/** Passwords chosen on the setup page; the env seed is the operator's choice and only warned about. */
export const MIN_OWNER_PASSWORD_LENGTH = 12;

/** Arbitrary, fixed key of the PostgreSQL advisory lock that serialises owner creation. */
const OWNER_SETUP_LOCK_KEY = 0x5b_0001;

export interface NewOwner {
  email: string;
  name: string;
  password: string;
}

export type CreateOwnerResult = { ok: true; userId: string } | { ok: false; reason: "already-set-up" };

export async function hasAnyUser(): Promise<boolean> {
  return (await db().user.findFirst({ select: { id: true } })) !== null;
}

/** "default", or "default-<n>" if an organization was created through the API before any user. */
async function freeOrgSlug(tx: Prisma.TransactionClient): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const slug = attempt === 0 ? "default" : `default-${attempt + 1}`;
    if (!(await tx.organization.findUnique({ where: { slug }, select: { id: true } }))) return slug;
  }
}

async function createOwnerInTransaction(tx: Prisma.TransactionClient, owner: NewOwner, passwordHash: string) {
  const user = await tx.user.create({
    data: { email: normalizeEmail(owner.email), name: owner.name.trim() || null, passwordHash, isInstanceOwner: true },
    select: { id: true },
  });
  const org = await tx.organization.create({
    data: {
      name: "Default",
      slug: await freeOrgSlug(tx),
      members: { create: { userId: user.id, role: "owner" } },
      workspaces: { create: { name: "Default", slug: "default" } },
    },
    select: { id: true, workspaces: { select: { id: true } } },
  });
  const workspaceId = org.workspaces[0].id;
  await tx.workspaceMember.create({ data: { orgId: org.id, workspaceId, userId: user.id } });
  await recordAuditEvent({ kind: "user", userId: user.id, apiKey: null }, { orgId: org.id, action: "instance.setup", targetType: "user", targetId: user.id }, tx);
  return user.id;
}

/**
 * Creates the instance owner, or reports that setup already happened. Two visitors racing
 * through /setup are serialised by a transaction-scoped advisory lock, and the loser sees the
 * winner's user and gets "already-set-up".
 */
export async function createInstanceOwner(owner: NewOwner): Promise<CreateOwnerResult> {
  if (!owner.email.trim() || !owner.password) throw new Error("createInstanceOwner needs an email and a password");
  const passwordHash = await hashPassword(owner.password);
  const userId = await db().$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${OWNER_SETUP_LOCK_KEY}::bigint)`;
    if (await tx.user.findFirst({ select: { id: true } })) return null;
    return createOwnerInTransaction(tx, owner, passwordHash);
  });
  return userId ? { ok: true, userId } : { ok: false, reason: "already-set-up" };
}

let envSeed: Promise<void> | null = null;

async function seedFromEnvOnce(email: string, password: string): Promise<void> {
  if (await hasAnyUser()) return;
  if (password.length < MIN_OWNER_PASSWORD_LENGTH) {
    logger.warn(`INITIAL_ADMIN_PASSWORD is shorter than ${MIN_OWNER_PASSWORD_LENGTH} characters`);
  }
  const name = setting("INITIAL_ADMIN_NAME") || "Admin";
  const result = await createInstanceOwner({ email, name, password });
  if (result.ok) logger.info({ email: normalizeEmail(email) }, "created the instance owner from INITIAL_ADMIN_EMAIL");
}

/**
 * Creates the instance owner from INITIAL_ADMIN_EMAIL / INITIAL_ADMIN_PASSWORD when no user
 * exists yet. Idempotent; called lazily by /signin and /setup rather than at start-up so that
 * nothing touches the database at import or build time. A failure is retried on the next call.
 */
export function seedInitialAdminFromEnv(): Promise<void> {
  const email = setting("INITIAL_ADMIN_EMAIL");
  const password = setting("INITIAL_ADMIN_PASSWORD");
  if (!email || !password) return Promise.resolve();
  envSeed ??= seedFromEnvOnce(email, password).catch((error: unknown) => {
    envSeed = null;
    throw error;
  });
  return envSeed;
}
