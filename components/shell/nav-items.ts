import {
  Activity,
  AppWindow,
  BookOpen,
  Building2,
  Eye,
  FolderOpen,
  KeyRound,
  Link2,
  LayoutDashboard,
  Layers,
  Mail,
  Network,
  Plug,
  ScrollText,
  Server,
  Settings,
  ShieldCheck,
  UserRound,
  Users,
  type LucideIcon,
} from "lucide-react";

export interface ContextNavItem {
  href: string;
  label: string;
  icon: LucideIcon;
}

/** The person's own places, whatever organization is shown: invitations to answer, the servers they can use, the upstream accounts they connected, and every key that acts in their name. */
export function personalNavItems(pendingInvitations: number): ContextNavItem[] {
  return [
    { href: "/", label: "Overview", icon: LayoutDashboard },
    { href: "/invitations", label: pendingInvitations > 0 ? `Invitations (${pendingInvitations})` : "Invitations", icon: Mail },
    { href: "/me/servers", label: "My MCP servers", icon: Server },
    { href: "/me/connections", label: "Connections", icon: Link2 },
    { href: "/me/api-keys", label: "Your API keys", icon: KeyRound },
    { href: "/me/connected-apps", label: "Connected apps", icon: AppWindow },
    { href: "/me/account", label: "Account", icon: UserRound },
  ];
}

/**
 * The organization's sections; members (not admins) manage nothing at this level. Labels are
 * unique across the whole navigation (the workspace has members and settings too), so each
 * place has one entry and a breadcrumb can name it.
 */
export function orgNavItems(orgId: string, isAdmin: boolean): ContextNavItem[] {
  if (!isAdmin) return [];
  const base = `/orgs/${orgId}`;
  return [
    { href: `${base}/connectors`, label: "Connectors", icon: Plug },
    { href: `${base}/usage`, label: "Usage", icon: Activity },
    { href: `${base}/roles`, label: "MCP roles", icon: ShieldCheck },
    { href: `${base}/graph`, label: "Knowledge graph", icon: Network },
    { href: `${base}/workspaces`, label: "Workspaces", icon: Layers },
    { href: `${base}/members`, label: "Organization members", icon: Users },
    { href: `${base}/audit`, label: "Audit log", icon: ScrollText },
    { href: `${base}/connected-apps`, label: "Organization connected apps", icon: AppWindow },
    { href: `${base}/settings`, label: "Organization settings", icon: Building2 },
  ];
}

/** The workspace's sections; a member sees only their own API keys and files. */
export function workspaceNavItems(workspaceId: string, isAdmin: boolean): ContextNavItem[] {
  const base = `/w/${workspaceId}`;
  const keys = { href: `${base}/api-keys`, label: "API keys", icon: KeyRound };
  const files = { href: `${base}/files`, label: "Files", icon: FolderOpen };
  if (!isAdmin) return [keys, files];
  return [
    { href: `${base}/servers`, label: "MCP servers", icon: Server },
    { href: `${base}/usage`, label: "Workspace usage", icon: Activity },
    { href: `${base}/preview`, label: "Preview as a caller", icon: Eye },
    { href: `${base}/skills`, label: "Skills", icon: BookOpen },
    { href: `${base}/members`, label: "Workspace members", icon: Users },
    keys,
    files,
    { href: `${base}/settings`, label: "Workspace settings", icon: Settings },
  ];
}

/** Every section the navigation shows this person for this place, for breadcrumbs. */
export function allNavItems(orgId: string | undefined, workspaceId: string | undefined, isAdmin: boolean): ContextNavItem[] {
  return [...personalNavItems(0), ...(orgId ? orgNavItems(orgId, isAdmin) : []), ...(workspaceId ? workspaceNavItems(workspaceId, isAdmin) : [])];
}

export function isActiveNavItem(item: { href: string }, pathname: string): boolean {
  return item.href === "/" ? pathname === "/" : pathname === item.href || pathname.startsWith(`${item.href}/`);
}

/** The org or workspace a pathname is about (`/orgs/<id>/…`, `/w/<id>/…`), and the rest of it. */
export function placeOfPath(pathname: string): { orgId?: string; workspaceId?: string; rest: string } {
  const org = /^\/orgs\/([^/]+)(\/.*)?$/.exec(pathname);
  if (org && org[1] !== "new") return { orgId: decodeURIComponent(org[1]), rest: org[2] ?? "" };
  const ws = /^\/w\/([^/]+)(\/.*)?$/.exec(pathname);
  if (ws) return { workspaceId: decodeURIComponent(ws[1]), rest: ws[2] ?? "" };
  return { rest: pathname };
}
