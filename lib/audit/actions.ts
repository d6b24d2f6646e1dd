/**
 * Every action the audit log records, each with the sentence the console and the OpenAPI
 * document show for it. Writers take `AuditAction`, so an action missing here does not compile;
 * the audit page's filter, its suggestions, the export and the API's `action` parameter read
 * this list (tests/unit/audit-actions.test.ts also checks the literals in lib/).
 */
export const AUDIT_ACTIONS = {
  // Calls in flight through an MCP endpoint.
  "tool.call": "A tool was called",
  "prompt.get": "An upstream prompt was read",
  "resource.read": "An upstream MCP server's resource was read",
  "host_resources.read": "An upstream MCP server read a file of the caller",
  "host_resources.list": "An upstream MCP server listed the caller's files",
  // Connectors and what they publish.
  "connector.create": "A connector was created",
  "connector.update": "A connector was changed",
  "connector.delete": "A connector was deleted",
  "connector.reload": "An MCP connector's tools were discovered again",
  "connector.tool.approve": "A tool's changed or new upstream definition was approved",
  "connector.test": "A connector's connection was tested",
  "connector.probe.update": "A connector's health check was changed",
  "resource.create": "A stored resource was created",
  "resource.update": "A stored resource was changed",
  "resource.delete": "A stored resource was deleted",
  "graph.replace": "A connector's knowledge graph was replaced",
  // MCP servers, roles, skills.
  "server.create": "An MCP server was created",
  "server.update": "An MCP server was changed",
  "server.connectors.set": "An MCP server's connectors were set",
  "server.tool_overrides.set": "An MCP server's tool overrides (renames, descriptions, annotations, hidden tools) were set",
  "server.delete": "An MCP server was deleted",
  "role.create": "A role was created",
  "role.update": "A role was changed",
  "role.delete": "A role was deleted",
  "skill.create": "A skill was created",
  "skill.update": "A skill was changed",
  "skill.delete": "A skill was deleted",
  // Credentials and OAuth apps.
  "api_key.create": "An API key was created",
  "api_key.revoke": "An API key was revoked",
  "oauth_app.allow": "A person allowed an OAuth app",
  "oauth_app.revoke": "An OAuth app's access was revoked",
  "connection.connect": "A person connected an upstream account to a connector",
  "connection.disconnect": "An upstream connection was removed (and revoked upstream where offered)",
  "connection.refresh_refused": "An upstream refused to renew a connection: it needs connecting again",
  "connection.step_up": "An upstream asked for a wider scope (403 insufficient_scope): the connection needs connecting again with it",
  // The organization, its people and its sign-in.
  "org.create": "The organization was created",
  "org.update": "The organization's settings were changed",
  "org.delete": "The organization was deleted",
  "org.config.apply": "A configuration document was applied to the organization",
  "org.secret.set": "A secret that configuration documents reference was set (its name, never its value)",
  "org.member.add": "A person joined the organization",
  "org.member.update": "A member's role was changed",
  "org.member.remove": "A person was removed from the organization",
  "org.invitation.create": "A person was invited",
  "org.invitation.revoke": "An invitation was revoked",
  "org.invitation.accept": "An invitation was accepted",
  "org.invitation.decline": "An invitation was declined",
  "org.sso.create": "Single sign-on was set up",
  "org.sso.update": "Single sign-on was changed",
  "org.sso.delete": "Single sign-on was removed",
  "org.sso.domain.verify": "A single sign-on domain was verified",
  "member.join_sso": "A person joined through single sign-on",
  // Workspaces.
  "workspace.create": "A workspace was created",
  "workspace.update": "A workspace was changed",
  "workspace.delete": "A workspace was deleted",
  "workspace.member.add": "A person was added to a workspace",
  "workspace.member.update": "A workspace member's role was changed",
  "workspace.member.remove": "A person was removed from a workspace",
  // Accounts and files.
  "instance.setup": "The instance owner was created",
  "user.create": "An account was created",
  "user.password_change": "A password was changed",
  "file.upload": "A file was uploaded",
  "file.update": "A file was changed",
  "file.delete": "A file was deleted",
} as const satisfies Record<string, string>;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

/** The actions in the order above (the console's suggestions, the API's enum). */
export const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as [AuditAction, ...AuditAction[]];

export function isAuditAction(value: string): value is AuditAction {
  return Object.hasOwn(AUDIT_ACTIONS, value);
}
