import { db } from "@/lib/db/client";
import type { Caller } from "@/lib/auth/caller";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import { loginLimiters } from "@/lib/auth/password-sign-in";
import { revokeUserSessions } from "@/lib/auth/sessions";
import { lockedOutMessage } from "@/lib/auth/sign-in-messages";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { ForbiddenError, ValidationError } from "@/lib/errors";
import { consume } from "@/lib/ratelimit/limiter";
import { ChangePasswordBody } from "@/lib/auth/change-password-schema";
import { revokeEveryAppOf } from "@/lib/oauth/connected-apps";

/**
 * A signed-in person changes their own password: the current one, and a new one under the
 * rules every password follows (lib/users/schemas.ts). The change signs the person out of
 * every other session — a browser someone else holds is what a password change is usually
 * for — while the session that made it stays signed in. It also revokes every OAuth app the
 * person allowed (their grants and refresh tokens): an app someone allowed with the old password
 * must not keep working after it changed.
 */

export interface ChangePasswordContext {
  clientIp: string;
  /** The session cookie of the request making the change: that session stays. */
  sessionCookie: string | undefined;
}

/** Checks the current password under the sign-in budget, so a stolen session cannot guess it freely. */
async function checkCurrentPassword(user: { email: string; passwordHash: string }, password: string, clientIp: string): Promise<void> {
  const budget = await consume(loginLimiters().perAccountAndIp, `${user.email}|${clientIp}`);
  if (!budget.ok) throw new ValidationError([{ path: "currentPassword", message: lockedOutMessage(budget.retryAfterMs) }], lockedOutMessage(budget.retryAfterMs));
  if (!(await verifyPassword(password, user.passwordHash))) {
    throw new ValidationError([{ path: "currentPassword", message: "That is not your current password." }], "Your password was not changed.");
  }
}

/** Changes `caller`'s password; returns how many other sessions were signed out and apps revoked. */
export async function changePassword(caller: Caller, body: ChangePasswordBody, context: ChangePasswordContext): Promise<{ signedOutSessions: number; revokedApps: number }> {
  if (caller.kind !== "user" || caller.apiKey) throw new ForbiddenError("Only you, signed in, can change your password.");
  const input = ChangePasswordBody.parse(body);
  const user = await db().user.findUnique({ where: { id: caller.userId }, select: { id: true, email: true, passwordHash: true } });
  if (!user?.passwordHash) throw new ValidationError([{ path: "currentPassword", message: "Your account signs in with single sign-on and has no password here." }], "Your account has no password.");
  await checkCurrentPassword({ email: user.email, passwordHash: user.passwordHash }, input.currentPassword, context.clientIp);
  if (input.currentPassword === input.newPassword) throw new ValidationError([{ path: "newPassword", message: "Choose a password other than your current one." }], "Your password was not changed.");
  const passwordHash = await hashPassword(input.newPassword);
  return db().$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { passwordHash } });
    // Other sessions end at their next request: they are rows, and a missing row is no session.
    const count = await revokeUserSessions(user.id, { keepCookie: context.sessionCookie, client: tx });
    const revokedApps = await revokeEveryAppOf(user.id, tx);
    await recordAuditEvent(caller, { orgId: null, action: "user.password_change", targetType: "user", targetId: user.id, data: { signedOutSessions: count, revokedApps } }, tx);
    return { signedOutSessions: count, revokedApps };
  });
}

/** Whether the person signs in with a password here (single sign-on accounts have none to change). */
export async function hasPassword(userId: string): Promise<boolean> {
  const user = await db().user.findUnique({ where: { id: userId }, select: { passwordHash: true } });
  return Boolean(user?.passwordHash);
}
