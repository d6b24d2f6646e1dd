import { db } from "@/lib/db/client";
import { invitationEndpoints as i } from "@/lib/invitations/endpoints";
import { INVITATION_TTL_MS } from "@/lib/invitations/invite-to-org";
import type { Tenant } from "@/tests/helpers/factories";
import { createUser, uniqueSuffix } from "@/tests/helpers/factories";
import type { MatrixCase, MatrixTarget } from "@/tests/integration/matrix/types";

/** Cross-tenant cases for invitations: the admins' list, create and revoke, and the invitee's answers. */

const MISSING = "id_missing_000";

const invitationsOf = (t: Tenant) => async () => ({
  invitations: await db().orgInvitation.findMany({ where: { orgId: t.org.id }, orderBy: { id: "asc" } }),
  orgMembers: await db().orgMember.findMany({ where: { orgId: t.org.id }, orderBy: { id: "asc" } }),
});

/** A pending invitation of the tenant's organization for somebody who is none of the outsiders. */
async function invitationOf(t: Tenant): Promise<string> {
  const invitee = await createUser("invitee");
  const row = await db().orgInvitation.create({
    data: { orgId: t.org.id, email: invitee.email, role: "member", invitedById: t.admin.user.id, expiresAt: new Date(Date.now() + INVITATION_TTL_MS) },
    select: { id: true },
  });
  return row.id;
}

const onOrg = (body?: () => unknown) => async (t: Tenant): Promise<MatrixTarget> => ({
  path: `/api/v1/orgs/${t.org.id}/invitations`,
  missingPath: `/api/v1/orgs/${MISSING}/invitations`,
  body: body?.(),
  snapshot: invitationsOf(t),
});

const invitationTarget = (suffix = "") => async (t: Tenant): Promise<MatrixTarget> => ({
  path: `/api/v1/invitations/${await invitationOf(t)}${suffix}`,
  missingPath: `/api/v1/invitations/${MISSING}${suffix}`,
  snapshot: invitationsOf(t),
});

export const invitationCases: MatrixCase[] = [
  { endpoint: i.listOrgInvitations, setup: onOrg(), outsiders: ["otherOrg", "member"] },
  { endpoint: i.createInvitation, setup: onOrg(() => ({ email: `joiner-${uniqueSuffix()}@example.test`, role: "member" })), outsiders: ["otherOrg", "member"] },
  { endpoint: i.revokeInvitation, setup: invitationTarget(), outsiders: ["otherOrg", "member"] },
  { endpoint: i.acceptInvitation, setup: invitationTarget("/accept"), outsiders: ["otherOrg", "member"] },
  { endpoint: i.declineInvitation, setup: invitationTarget("/decline"), outsiders: ["otherOrg", "member"] },
];
