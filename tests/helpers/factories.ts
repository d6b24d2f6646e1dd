import { randomBytes } from "node:crypto";
import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { hashPassword } from "@/lib/auth/password";
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
  const { id, email } = await makeUser({ label });
  return { id, email };
}

/** Issues an API key for a user in a workspace (optionally pinned to one MCP server). */
export async function createApiKeyFor(
  user: { id: string },
  workspace: { id: string; orgId: string },
  opts: { serverId?: string; expiresAt?: Date } = {},
): Promise<{ token: string; apiKeyId: string }> {
  const key = await makeKey(user, { orgId: workspace.orgId, workspaceId: workspace.id }, opts);
  return { token: key.token, apiKeyId: key.id };
}

async function actor(orgId: string, workspaceId: string, role: "owner" | "admin" | "member"): Promise<Actor> {
  const { id, email } = await makeMember({ orgId, workspaceId }, { role });
  const { token, apiKeyId } = await createApiKeyFor({ id }, { id: workspaceId, orgId });
  return { user: { id, email }, token, apiKeyId };
}

/** An organization with one workspace, an owner, an admin and a plain member, each with a key. */
export async function createTenant(opts: { toolWhitelistsEnabled?: boolean; knowledgeGraphEnabled?: boolean } = {}): Promise<Tenant> {
  const org = await makeOrg();
  const workspace = await makeWorkspace(org.id, { name: "Main", slug: "main", ...opts });
  const owner = await actor(org.id, workspace.id, "owner");
  const admin = await actor(org.id, workspace.id, "admin");
  const member = await actor(org.id, workspace.id, "member");
  return { org: { id: org.id, slug: org.slug }, workspace: { id: workspace.id, slug: workspace.slug }, owner, admin, member };
}

/** A second workspace in the same organization (for cross-workspace checks). */
export async function createWorkspace(orgId: string, slug = `ws-${uniqueSuffix()}`): Promise<{ id: string; slug: string }> {
  const { id } = await makeWorkspace(orgId, { slug });
  return { id, slug };
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

/**
 * Rows, documenso style: each `make…` writes one row (and what it needs) straight to the
 * database with defaults a test can override, and returns the created row. For what a test
 * sets up but does not test; a test *of* creating something goes through the API.
 */

type OrgRoleName = "owner" | "admin" | "member";
/** Where a row goes: a tenant (or anything with its org and workspace), or ids. */
export type At = { org: { id: string }; workspace?: { id: string }; owner?: Actor } | { orgId: string; workspaceId?: string };
const orgOf = (at: At) => ("org" in at ? at.org.id : at.orgId);
function workspaceOf(at: At): string {
  const id = "org" in at ? at.workspace?.id : at.workspaceId;
  if (!id) throw new Error("this row needs a workspace: pass a tenant or { orgId, workspaceId }");
  return id;
}

/** A person of no organization. `label` starts the unique email; a `password` is hashed as sign-up does. */
export async function makeUser(overrides: Partial<Prisma.UserCreateInput> & { label?: string; password?: string } = {}) {
  const { label = "user", password, ...data } = overrides;
  const passwordHash = password === undefined ? undefined : await hashPassword(password);
  return db().user.create({ data: { email: `${label}-${uniqueSuffix()}@example.test`, name: label, passwordHash, ...data } });
}

/** An organization (no members: add them with makeMember). */
export async function makeOrg(overrides: Partial<Prisma.OrganizationCreateInput> = {}) {
  const slug = overrides.slug ?? `org-${uniqueSuffix()}`;
  return db().organization.create({ data: { name: `Org ${slug}`, ...overrides, slug } });
}

/** A workspace of the organization (no members). */
export async function makeWorkspace(orgId: string, overrides: Partial<Omit<Prisma.WorkspaceUncheckedCreateInput, "orgId">> = {}) {
  const slug = overrides.slug ?? `ws-${uniqueSuffix()}`;
  return db().workspace.create({ data: { orgId, name: slug, ...overrides, slug } });
}

/** Makes `user` a member of the workspace (an existing org member, say, joining a second workspace). */
export async function makeWorkspaceMember(at: At, user: { id: string }, mcpRoleId: string | null = null) {
  return db().workspaceMember.create({ data: { orgId: orgOf(at), workspaceId: workspaceOf(at), userId: user.id, mcpRoleId } });
}

/**
 * A person in the organization with `role` (default member) and in the workspace of `at` unless
 * `workspace: false`; `user` adds an existing person instead of making one. Returns the person.
 */
export async function makeMember(
  at: At,
  opts: { role?: OrgRoleName; user?: { id: string }; workspace?: boolean; mcpRoleId?: string | null } & Parameters<typeof makeUser>[0] = {},
) {
  const { role = "member", user: existing, workspace = true, mcpRoleId = null, ...person } = opts;
  const user = existing ? await db().user.findUniqueOrThrow({ where: { id: existing.id } }) : await makeUser({ label: role, ...person });
  await db().orgMember.create({ data: { orgId: orgOf(at), userId: user.id, role } });
  if (workspace) await makeWorkspaceMember(at, user, mcpRoleId);
  return user;
}

type ToolRow = { name: string } & Partial<Omit<Prisma.ToolCreateManyConnectorInput, "orgId">>;
type ConnectorOverrides = Partial<Omit<Prisma.ConnectorUncheckedCreateInput, "orgId" | "tools">> & { tools?: (string | ToolRow)[] };

/** A connector row (http by default; an mcp one points at a closed port) with these tools (names, or rows). */
export async function makeConnector(at: At, overrides: ConnectorOverrides = {}) {
  const { tools = [], ...rest } = overrides;
  const slug = rest.slug ?? `c-${uniqueSuffix()}`;
  const type = rest.type ?? "http";
  const config = type === "http" ? { baseUrl: "https://api.example.com" } : { url: "http://127.0.0.1:9/mcp" };
  const orgId = orgOf(at);
  return db().connector.create({
    data: { orgId, name: slug, config, ...rest, slug, type, tools: { create: tools.map((tool, position) => ({ orgId, position, ...(typeof tool === "string" ? { name: tool } : tool) })) } },
    include: { tools: { select: { id: true, name: true }, orderBy: { position: "asc" } } },
  });
}

/** An MCP server of the workspace of `at` over these connectors, in this order. */
export async function makeServer(at: At, overrides: Partial<Omit<Prisma.McpServerUncheckedCreateInput, "orgId" | "connectors">> & { connectorIds?: string[] } = {}) {
  const { connectorIds = [], ...rest } = overrides;
  const orgId = orgOf(at);
  const connectors = { create: connectorIds.map((connectorId, position) => ({ orgId, connectorId, position })) };
  return db().mcpServer.create({ data: { orgId, workspaceId: rest.workspaceId ?? workspaceOf(at), name: "Support", ...rest, connectors } });
}

/** An MCP role allowing these tools ([connectorId, tool name] pairs). */
export async function makeRole(at: At, overrides: { name?: string; tools?: [string, string][] } = {}) {
  const orgId = orgOf(at);
  const tools = { create: (overrides.tools ?? []).map(([connectorId, toolName]) => ({ orgId, connectorId, toolName })) };
  return db().mcpRole.create({ data: { orgId, name: overrides.name ?? `role-${uniqueSuffix()}`, tools } });
}

/** An API key of `user` in the workspace of `at`; the row and its secret `token` (`sb_…`). */
export async function makeKey(user: { id: string }, at: At, overrides: Partial<Omit<Prisma.ApiKeyUncheckedCreateInput, "orgId" | "userId" | "prefix" | "hash">> = {}) {
  const { key, prefix, hash } = generateApiKey();
  const row = await db().apiKey.create({ data: { orgId: orgOf(at), workspaceId: workspaceOf(at), userId: user.id, name: "test key", ...overrides, prefix, hash } });
  return { ...row, token: key };
}

/** A file row (its blob is not written: for lists, names and rules, not contents). Owner: the tenant's owner unless given. */
export async function makeFile(at: At, overrides: Partial<Omit<Prisma.FileUncheckedCreateInput, "orgId">> = {}) {
  const ownerId = overrides.ownerId ?? ("owner" in at ? at.owner?.user.id : undefined);
  if (!ownerId) throw new Error("makeFile needs an ownerId unless given a tenant");
  const id = overrides.id ?? `fl_${randomBytes(12).toString("hex")}`;
  const data = { id, orgId: orgOf(at), workspaceId: workspaceOf(at), name: "a.txt", mimeType: "text/plain", size: 1, sha256: "0".repeat(64), storageKey: id };
  return db().file.create({ data: { ...data, ...overrides, id, ownerId } });
}

/** A skill of the workspace of `at`. */
export async function makeSkill(at: At, overrides: Partial<Omit<Prisma.SkillUncheckedCreateInput, "orgId">> = {}) {
  return db().skill.create({ data: { orgId: orgOf(at), workspaceId: workspaceOf(at), name: "Tone", content: "Be brief.", ...overrides } });
}
