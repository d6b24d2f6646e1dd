import type { Prisma } from "@/lib/generated/prisma/client";
import type { OrgRoleName } from "@/lib/orgs/member-guards";

/** How an invitation reads to the admins of its organization and to the invited person alike. */

export const invitationSelect = {
  id: true,
  orgId: true,
  email: true,
  role: true,
  workspaceIds: true,
  status: true,
  expiresAt: true,
  respondedAt: true,
  createdAt: true,
  org: { select: { name: true } },
  invitedBy: { select: { email: true, name: true } },
} as const satisfies Prisma.OrgInvitationSelect;

type InvitationRow = Prisma.OrgInvitationGetPayload<{ select: typeof invitationSelect }>;

export type InvitationStatusName = "pending" | "accepted" | "declined" | "revoked" | "expired";

export interface InvitationView {
  id: string;
  orgId: string;
  orgName: string;
  email: string;
  role: OrgRoleName;
  workspaceIds: string[];
  status: InvitationStatusName;
  invitedBy: { email: string; name: string | null } | null;
  expiresAt: Date;
  respondedAt: Date | null;
  createdAt: Date;
}

/** An invitation stays `pending` in its row after `expiresAt`; it reads as `expired` and can no longer be answered. */
export function isExpired(row: { status: string; expiresAt: Date }, now = new Date()): boolean {
  return row.status === "pending" && row.expiresAt.getTime() <= now.getTime();
}

export function toInvitationView(row: InvitationRow): InvitationView {
  const { org, invitedBy, ...rest } = row;
  return { ...rest, status: isExpired(row) ? "expired" : row.status, orgName: org.name, invitedBy: invitedBy ?? null };
}
