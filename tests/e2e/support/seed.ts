import { makeMember, makeOrg, makeWorkspace, uniqueSuffix } from "@/tests/helpers/factories";

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
  const org = await makeOrg({ name: `E2E Org ${suffix}`, slug: `e2e-${suffix}` });
  const workspace = await makeWorkspace(org.id, { name: "Main", slug: "main" });
  const user = await makeMember({ orgId: org.id, workspaceId: workspace.id }, { role: "owner", email, name: "E2E Admin", password, isInstanceOwner: true });
  return { email, password, userId: user.id, org: { id: org.id, name: org.name }, workspace: { id: workspace.id, name: workspace.name } };
}

/** An org member with a password, added to the workspace (no MCP role). */
export async function seedMember(orgId: string, workspaceId: string): Promise<{ userId: string; email: string; suffix: string }> {
  const suffix = uniqueSuffix();
  const email = `e2e-member-${suffix}@example.test`;
  const user = await makeMember({ orgId, workspaceId }, { role: "member", email, name: `Member ${suffix}` });
  return { userId: user.id, email, suffix };
}
