/**
 * The tags of the admin API, in the order a reader meets them, each with what it groups. Every
 * endpoint spec's `tag` must be one of these (tests/integration/openapi.test.ts): a generated
 * client and the rendered reference group operations by them.
 */
export const API_TAGS: { name: string; description: string }[] = [
  { name: "Organizations", description: "Organizations: the tenants. Everything else belongs to one." },
  { name: "Organization members", description: "Who belongs to an organization, and as owner, admin or member." },
  { name: "Invitations", description: "Joining an organization takes the invited person's consent: invitations by email or link." },
  { name: "Users", description: "Accounts: created by the instance credential, or by an organization's owner or admin." },
  { name: "Single sign-on", description: "An organization's OIDC identity provider and the email domains that sign in through it." },
  { name: "Workspaces", description: "Workspaces of an organization, their members and the MCP role each member has." },
  { name: "MCP roles", description: "Which connector tools a workspace member's MCP clients may see and call." },
  { name: "Connectors", description: "APIs (http) and upstream MCP servers (mcp): their tools, instructions and health; secrets are write-only." },
  { name: "Stored resources", description: "Static text a connector publishes as MCP resources." },
  { name: "Knowledge graph", description: "The manual layer of a connector's knowledge graph." },
  { name: "MCP servers", description: "The MCP endpoints (/mcp/<serverId>) of a workspace and the connectors each one serves." },
  { name: "Skills", description: "Workspace skills: instructions applied to the MCP servers, optionally scoped to one connector." },
  { name: "API keys", description: "User API keys (sb_…): shown once, stored as a hash, optionally pinned to one MCP server." },
  { name: "Files", description: "The files of a workspace, which upstream MCP servers read as files:// resources." },
  { name: "Audit", description: "The organization's audit log, newest first, and its export." },
  { name: "Usage", description: "Tool calls of an organization or a workspace: counts, errors and latency over time." },
  { name: "Configuration as code", description: "An organization as one YAML or JSON document: export, plan, apply, and the write-only secrets it references." },
  { name: "Connected apps", description: "OAuth clients that signed users in to the MCP endpoints, and revoking them." },
  { name: "Connections", description: "The upstream accounts people (or, for a shared connector, an owner or admin) connected to OAuth connectors: connecting, listing and disconnecting them." },
];
