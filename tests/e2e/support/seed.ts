import { db } from "@/lib/db/client";
import { hashPassword } from "@/lib/auth/password";
import { uniqueSuffix } from "@/tests/helpers/factories";

export interface SeededAdmin {
  email: string;
  password: string;
  userId: string;
  org: { id: string; name: string };
  workspace: { id: string; name: string };
}

/**
 * A user who can sign in (password), is an instance owner (may create organizations) and owns
 * a fresh organization with one workspace. Unique per call, like every test tenant.
 */
export async function seedAdmin(): Promise<SeededAdmin> {
  const suffix = uniqueSuffix();
  const email = `e2e-admin-${suffix}@example.test`;
  const password = `e2e-password-${suffix}`;
  const user = await db().user.create({
    data: { email, name: "E2E Admin", passwordHash: await hashPassword(password), isInstanceOwner: true },
    select: { id: true },
  });
  const org = await db().organization.create({
    data: { name: `E2E Org ${suffix}`, slug: `e2e-${suffix}`, members: { create: { userId: user.id, role: "owner" } } },
    select: { id: true, name: true },
  });
  const workspace = await db().workspace.create({ data: { orgId: org.id, name: "Main", slug: "main" }, select: { id: true, name: true } });
  await db().workspaceMember.create({ data: { orgId: org.id, workspaceId: workspace.id, userId: user.id } });
  return { email, password, userId: user.id, org, workspace };
}

/** An org member with a password, added to the workspace (no MCP role). */
export async function seedMember(orgId: string, workspaceId: string): Promise<{ userId: string; email: string; suffix: string }> {
  const suffix = uniqueSuffix();
  const email = `e2e-member-${suffix}@example.test`;
  const user = await db().user.create({ data: { email, name: `Member ${suffix}` }, select: { id: true } });
  await db().orgMember.create({ data: { orgId, userId: user.id, role: "member" } });
  await db().workspaceMember.create({ data: { orgId, workspaceId, userId: user.id } });
  return { userId: user.id, email, suffix };
}
