import { db } from "@/lib/db/client";
import { roleAllows } from "@/lib/permissions/table";

export interface OverviewWorkspace {
  id: string;
  name: string;
  slug: string;
  serverCount: number;
}

export interface OverviewOrg {
  id: string;
  name: string;
  slug: string;
  role: "owner" | "admin" | "member";
  connectorCount: number;
  workspaces: OverviewWorkspace[];
}

/**
 * The organizations the user belongs to, each with the workspaces they can open: all of them
 * for an org owner or admin, only those they are a member of otherwise.
 */
export async function listOrgsForOverview(userId: string): Promise<OverviewOrg[]> {
  const memberships = await db().orgMember.findMany({
    where: { userId },
    orderBy: { createdAt: "asc" },
    select: {
      role: true,
      org: {
        select: {
          id: true,
          name: true,
          slug: true,
          _count: { select: { connectors: true } },
          workspaces: {
            orderBy: { createdAt: "asc" },
            select: {
              id: true,
              name: true,
              slug: true,
              members: { where: { userId }, select: { id: true } },
              _count: { select: { servers: true } },
            },
          },
        },
      },
    },
  });
  return memberships.map(({ role, org }) => ({
    id: org.id,
    name: org.name,
    slug: org.slug,
    role,
    connectorCount: org._count.connectors,
    workspaces: org.workspaces
      // Those who may manage workspaces (the permission table) see every one; others those they joined.
      .filter((workspace) => roleAllows(role, "workspace.manage") || workspace.members.length > 0)
      .map((workspace) => ({
        id: workspace.id,
        name: workspace.name,
        slug: workspace.slug,
        serverCount: workspace._count.servers,
      })),
  }));
}
