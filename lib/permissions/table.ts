/**
 * Who may do what: one table of credential kind × action. The API guards (lib/permissions/guards.ts
 * and the tenant scopes built from it, lib/tenancy/scopes.ts), the console's pages and MCP
 * visibility ask this table; docs/admin-api.md's "What a key, an admin and an owner may do" is
 * rendered from it (lib/permissions/render-table.ts, checked by tests/unit/permission-table.test.ts).
 * A new action is a new row here — and a row of the table-driven test
 * (tests/integration/permission-table.test.ts), which calls the real API for every kind.
 */

/**
 * The kinds of credential. Browser sessions carry their person's organization role; a key
 * carries its user's role (capped by the key's `maxRole`); a key pinned to one MCP server is
 * judged by its role's key column *and* the pinned column, an OAuth token by its user's role's
 * key column *and* the OAuth column (never more than either allows).
 */
export const CREDENTIAL_KINDS = [
  "owner",
  "admin",
  "member",
  "owner_key",
  "admin_key",
  "member_key",
  "pinned_key",
  "instance",
  "oauth_token",
] as const;
export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];

export const KIND_LABELS: Record<CredentialKind, string> = {
  owner: "Owner",
  admin: "Admin",
  member: "Member",
  owner_key: "Owner's key",
  admin_key: "Admin's key",
  member_key: "Member's key",
  pinned_key: "Key pinned to one server",
  instance: "Instance credential",
  oauth_token: "OAuth token",
};

type Row = { says: string; allow: readonly CredentialKind[] };

const PEOPLE = ["owner", "admin", "member", "owner_key", "admin_key", "member_key", "pinned_key", "instance"] as const;
const MANAGERS = ["owner", "admin", "owner_key", "admin_key", "instance"] as const;
const OWNERS = ["owner", "owner_key", "instance"] as const;
const BEARERS = ["owner_key", "admin_key", "member_key", "pinned_key", "instance", "oauth_token"] as const;

export const PERMISSIONS = {
  "org.read": { says: "read the organization and its workspace list", allow: PEOPLE },
  "org.update": { says: "rename the organization, change its settings", allow: MANAGERS },
  "org.owner_settings": {
    says: "change what tool audit events keep and how long the audit log lasts, delete the organization",
    allow: OWNERS,
  },
  "org.members.read": { says: "list the organization's members and their roles", allow: MANAGERS },
  "org.members.manage": { says: "add, change or remove organization members (below owner), invite people", allow: MANAGERS },
  "owners.manage": {
    says: "reach an owner: grant, change or remove the owner role (or invite one), issue or revoke keys in an owner's name, remove an owner from a workspace, change single sign-on (it speaks for every person of its domains)",
    allow: OWNERS,
  },
  "workspace.manage": { says: "create, change or delete a workspace", allow: MANAGERS },
  "workspace.members.read": { says: "list a workspace's members and their MCP roles", allow: MANAGERS },
  "workspace.members.manage": { says: "add or remove workspace members, give them MCP roles", allow: MANAGERS },
  "connectors.manage": {
    says: "create, change, reload, test or delete connectors (organization-wide: every workspace's servers use them), their tools, stored resources, knowledge graph and health check",
    allow: MANAGERS,
  },
  "roles.manage": { says: "read, create, change or delete MCP roles", allow: MANAGERS },
  "skills.manage": { says: "read, create, change or delete a workspace's skills", allow: MANAGERS },
  "servers.read": { says: "read an MCP server (a pinned key: its own only)", allow: [...MANAGERS, "pinned_key"] },
  "servers.manage": { says: "change or delete an MCP server, set its connectors and its tool overrides (a pinned key: its own only)", allow: [...MANAGERS, "pinned_key"] },
  "servers.create": { says: "create an MCP server", allow: MANAGERS },
  "keys.own": { says: "issue, list and revoke one's own API keys (a pinned key: pinned to its server)", allow: PEOPLE.filter((k) => k !== "instance") },
  "keys.others": { says: "issue, list and revoke other people's API keys in a workspace", allow: MANAGERS },
  "files.delete_shared": {
    says: "delete a file another person shared with the workspace (changing a file, or deleting a private one, is its owner's alone, whatever the role)",
    allow: MANAGERS,
  },
  "usage.read": { says: "read usage", allow: MANAGERS },
  "audit.read": { says: "read and export the audit log", allow: MANAGERS },
  "mcp.all_tools": {
    says: "see and call every tool of an MCP server, whatever MCP role is set (a person: what the console's preview of them shows)",
    allow: [...MANAGERS, "pinned_key", "oauth_token"],
  },
  "connections.own": {
    says: "connect, list and disconnect one's own upstream accounts (OAuth connectors); a shared connector also needs its organization's owner or admin role",
    allow: PEOPLE.filter((k) => k !== "instance"),
  },
  "connections.manage": { says: "list and remove anyone's upstream connections of the organization's connectors", allow: MANAGERS },
  "mcp.use": { says: "call an MCP server of a workspace one works in (with a bearer credential: MCP takes no browser session)", allow: BEARERS },
} as const satisfies Record<string, Row>;

export type Action = keyof typeof PERMISSIONS;
export const ACTIONS = Object.keys(PERMISSIONS) as Action[];

/** Whether a credential of this kind may take this action (the table, nothing else). */
export function kindAllows(kind: CredentialKind, action: Action): boolean {
  return (PERMISSIONS[action].allow as readonly CredentialKind[]).includes(kind);
}

export type OrgRoleName = "owner" | "admin" | "member";
const ROLES: readonly OrgRoleName[] = ["owner", "admin", "member"];

/** Whether a person of this role, signed in to the console, may take `action` (what the pages show and offer). */
export function roleAllows(role: OrgRoleName, action: Action): boolean {
  return kindAllows(role, action);
}

/** The organization roles whose browser sessions and unpinned keys may take `action`: what the scoped queries filter members by. */
export function rolesAllowed(action: Action): OrgRoleName[] {
  return ROLES.filter((role) => kindAllows(role, action) && kindAllows(`${role}_key`, action));
}
