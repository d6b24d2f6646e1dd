import type { OverviewOrg, OverviewWorkspace } from "@/lib/shell/overview";
import { placeOfPath } from "@/components/shell/nav-items";

export interface Place {
  org: OverviewOrg | null;
  workspace: OverviewWorkspace | null;
}

/**
 * The organization and workspace the navigation shows: those of the URL when it names one,
 * else the ones used last (`fallback`, from cookies).
 */
export function resolvePlace(orgs: OverviewOrg[], pathname: string, fallback: { orgId?: string; workspaceId?: string }): Place {
  const { orgId, workspaceId } = placeOfPath(pathname);
  if (workspaceId) {
    for (const org of orgs) {
      const workspace = org.workspaces.find((w) => w.id === workspaceId);
      if (workspace) return { org, workspace };
    }
  }
  const org = orgs.find((o) => o.id === (orgId ?? fallback.orgId)) ?? (orgId ? null : orgs[0]) ?? null;
  if (!org) return { org: null, workspace: null };
  const workspace = org.workspaces.find((w) => w.id === fallback.workspaceId) ?? org.workspaces[0] ?? null;
  return { org, workspace };
}
