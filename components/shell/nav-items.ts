import {
  BookOpen,
  FolderOpen,
  KeyRound,
  LayoutDashboard,
  Plug,
  ScrollText,
  Server,
  ShieldCheck,
  type LucideIcon,
} from "lucide-react";

export interface NavItem {
  href: string;
  label: string;
  icon: LucideIcon;
  /** What the section is for; shown on its page until the section is built. */
  summary: string;
}

export const ADMIN_NAV_ITEMS: readonly NavItem[] = [
  { href: "/", label: "Overview", icon: LayoutDashboard, summary: "Your organizations and workspaces." },
  {
    href: "/connectors",
    label: "Connectors",
    icon: Plug,
    summary: "HTTP APIs and upstream MCP servers, their tools, instructions and encrypted secrets.",
  },
  {
    href: "/servers",
    label: "MCP servers",
    icon: Server,
    summary: "The endpoints MCP clients connect to (/mcp/<serverId>) and the connectors assigned to each.",
  },
  { href: "/roles", label: "Roles", icon: ShieldCheck, summary: "MCP roles: which tools each workspace member may use." },
  { href: "/skills", label: "Skills", icon: BookOpen, summary: "Markdown guidance served to MCP clients, optionally scoped to a connector." },
  { href: "/files", label: "Files", icon: FolderOpen, summary: "Files in a workspace, readable by upstream MCP servers as files:// resources." },
  { href: "/api-keys", label: "API keys", icon: KeyRound, summary: "Keys for MCP clients and automation, optionally pinned to one server." },
  { href: "/audit", label: "Audit log", icon: ScrollText, summary: "Who changed what, tool calls and file reads, newest first." },
];

export function isActiveNavItem(item: NavItem, pathname: string): boolean {
  return item.href === "/" ? pathname === "/" : pathname === item.href || pathname.startsWith(`${item.href}/`);
}
