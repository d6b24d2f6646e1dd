import { randomBytes } from "node:crypto";
import { db } from "@/lib/db/client";
import { generateApiKey } from "@/lib/auth/api-key-secret";
import { sessionCookieName } from "@/lib/auth/session-token";
import { createSessionToken } from "@/lib/auth/sessions";
import { INSTANCE_CALLER } from "@/lib/auth/caller";
import { createConnector } from "@/lib/connectors/create-connector";
import { CreateConnectorBody } from "@/lib/connectors/schemas";
import { createServer } from "@/lib/servers/servers";
import { CreateServerBody } from "@/lib/servers/schemas";
import { createRole } from "@/lib/roles/roles";
import { CreateRoleBody } from "@/lib/roles/schemas";
import { updateWorkspaceMember } from "@/lib/workspaces/members";
import { putOrgSso } from "@/lib/sso/sso-connections";
import { PutSsoBody } from "@/lib/sso/schemas";
import { UpdateWorkspaceMemberBody } from "@/lib/workspaces/schemas";

/**
 * Per-test tenants. Every test makes its own organization and users, so tests never share
 * rows and can run in any order against one database.
 */

export const INSTANCE_KEY = process.env.INSTANCE_API_KEY ?? "test-instance-key";

export interface Actor {
  user: { id: string; email: string };
  /** A user API key (`sb_…`) of this user in the tenant's workspace. */
  token: string;
  apiKeyId: string;
}

export interface Tenant {
  org: { id: string; slug: string };
  workspace: { id: string; slug: string };
  owner: Actor;
  admin: Actor;
  /** An org member who is also a member of the workspace, without an MCP role. */
  member: Actor;
}

export function uniqueSuffix(): string {
  return randomBytes(5).toString("hex");
}

export async function createUser(label = "user"): Promise<{ id: string; email: string }> {
  const email = `${label}-${uniqueSuffix()}@example.test`;
  return db().user.create({ data: { email, name: label }, select: { id: true, email: true } });
}

/** Issues an API key for a user in a workspace (optionally pinned to one MCP server). */
export async function createApiKeyFor(
  user: { id: string },
  workspace: { id: string; orgId: string },
  opts: { serverId?: string; expiresAt?: Date } = {},
): Promise<{ token: string; apiKeyId: string }> {
  const { key, prefix, hash } = generateApiKey();
  const row = await db().apiKey.create({
    data: {
      orgId: workspace.orgId,
      workspaceId: workspace.id,
      userId: user.id,
      serverId: opts.serverId ?? null,
      expiresAt: opts.expiresAt ?? null,
      name: "test key",
      prefix,
      hash,
    },
    select: { id: true },
  });
  return { token: key, apiKeyId: row.id };
}

async function actor(orgId: string, workspaceId: string, role: "owner" | "admin" | "member"): Promise<Actor> {
  const user = await createUser(role);
  await db().orgMember.create({ data: { orgId, userId: user.id, role } });
  await db().workspaceMember.create({ data: { orgId, workspaceId, userId: user.id } });
  const { token, apiKeyId } = await createApiKeyFor(user, { id: workspaceId, orgId });
  return { user, token, apiKeyId };
}

/** An organization with one workspace, an owner, an admin and a plain member, each with a key. */
export async function createTenant(opts: { toolWhitelistsEnabled?: boolean; knowledgeGraphEnabled?: boolean } = {}): Promise<Tenant> {
  const slug = `org-${uniqueSuffix()}`;
  const org = await db().organization.create({ data: { name: `Org ${slug}`, slug }, select: { id: true, slug: true } });
  const workspace = await db().workspace.create({
    data: { orgId: org.id, name: "Main", slug: "main", ...opts },
    select: { id: true, slug: true },
  });
  const owner = await actor(org.id, workspace.id, "owner");
  const admin = await actor(org.id, workspace.id, "admin");
  const member = await actor(org.id, workspace.id, "member");
  return { org, workspace, owner, admin, member };
}

/** A second workspace in the same organization (for cross-workspace checks). */
export async function createWorkspace(orgId: string, slug = `ws-${uniqueSuffix()}`): Promise<{ id: string; slug: string }> {
  return db().workspace.create({ data: { orgId, name: slug, slug }, select: { id: true, slug: true } });
}

/**
 * Request headers of a signed-in browser of this user (a better-auth session cookie: a live session row), sent from
 * the console's own origin as a browser would.
 */
export async function browserSessionOf(user: { id: string; email: string }): Promise<Record<string, string>> {
  const token = await createSessionToken({ id: user.id, email: user.email, name: null });
  return { cookie: `${sessionCookieName()}=${token}`, origin: "http://localhost:3000", "sec-fetch-site": "same-origin" };
}

/**
 * Configuration objects, made through the product's own domain functions as the instance
 * credential (every body parsed by its endpoint's schema), so they are exactly what the API
 * would have stored — and every one bumps the org's configuration version as the API does.
 */

/** An `http` connector whose tools are GET /<tool name> on `baseUrl`. */
export async function createHttpConnector(t: Tenant, name: string, tools: string[], baseUrl = "https://api.example.com"): Promise<string> {
  const body = CreateConnectorBody.parse({ type: "http", name, config: { baseUrl }, tools: tools.map((tool) => ({ name: tool, request: { method: "GET", path: `/${tool}` } })) });
  return (await createConnector(INSTANCE_CALLER, t.org.id, body)).id;
}

/** An MCP server of the tenant's workspace over these connectors. */
export async function createMcpServer(t: Tenant, connectorIds: string[], name = "Support"): Promise<string> {
  return (await createServer(INSTANCE_CALLER, t.workspace.id, CreateServerBody.parse({ name, connectorIds }), "http://localhost")).id;
}

/** An MCP role whitelisting `tools` and `prompts` ([connectorId, name] pairs). */
export async function createMcpRole(t: Tenant, tools: [string, string][], name = `role-${uniqueSuffix()}`, prompts: [string, string][] = []): Promise<string> {
  const body = { name, tools: tools.map(([connectorId, tool]) => ({ connectorId, tool })), prompts: prompts.map(([connectorId, prompt]) => ({ connectorId, prompt })) };
  return (await createRole(INSTANCE_CALLER, t.org.id, CreateRoleBody.parse(body))).id;
}

/** Gives a workspace member an MCP role (null: none). */
export async function assignMcpRole(t: Tenant, userId: string, mcpRoleId: string | null): Promise<void> {
  await updateWorkspaceMember(INSTANCE_CALLER, t.workspace.id, userId, UpdateWorkspaceMemberBody.parse({ mcpRoleId }));
}

/** Single sign-on for the tenant's org with these domains, all pending (unverified) as the API leaves them. */
export async function createOrgSso(t: Tenant, domains: string[], issuer = "https://idp.example.com"): Promise<void> {
  const body = PutSsoBody.parse({ issuer, clientId: "switchboard", clientSecret: "s3cret", domains, joinNewUsers: false });
  await putOrgSso(INSTANCE_CALLER, t.org.id, body);
}
