/**
 * Stores the benchmark tenant (bench/mcp/build-tenant-data.ts) through the product's own domain
 * functions, as the admin API would (every body parsed by the endpoint's zod schema first): an
 * organization, a workspace with tool whitelists on, the 50 connectors with their resources,
 * the 30 skills, one server over every connector, an MCP role whitelisting all 1,000 tools and
 * a plain member holding it, with an API key. Needs DATABASE_URL set before this module is
 * imported (lib/db/client.ts reads it on first use).
 */
import { INSTANCE_CALLER } from "@/lib/auth/caller";
import { createApiKey } from "@/lib/api-keys/api-keys";
import { CreateApiKeyBody } from "@/lib/api-keys/schemas";
import { createConnector } from "@/lib/connectors/create-connector";
import { CreateConnectorBody } from "@/lib/connectors/schemas";
import { db } from "@/lib/db/client";
import { createOrg } from "@/lib/orgs/orgs";
import { CreateOrgBody } from "@/lib/orgs/schemas";
import { createStoredResource } from "@/lib/resources/stored-resources";
import { CreateStoredResourceBody } from "@/lib/resources/schemas";
import { createRole } from "@/lib/roles/roles";
import { CreateRoleBody } from "@/lib/roles/schemas";
import { createServer } from "@/lib/servers/servers";
import { CreateServerBody } from "@/lib/servers/schemas";
import { createSkill } from "@/lib/skills/skills";
import { CreateSkillBody } from "@/lib/skills/schemas";
import { createUser } from "@/lib/users/users";
import { CreateUserBody } from "@/lib/users/schemas";
import { addWorkspaceMember } from "@/lib/workspaces/members";
import { createWorkspace } from "@/lib/workspaces/workspaces";
import { AddWorkspaceMemberBody, CreateWorkspaceBody } from "@/lib/workspaces/schemas";
import type { TenantData } from "./build-tenant-data";

export interface SeededTenant {
  orgId: string;
  workspaceId: string;
  serverId: string;
  /** The member's API key (sb_…): what its MCP client sends. */
  memberKey: string;
  /** The 50 connectors, in the order of the tenant data (bench/mcp/seed-shared-workspace.ts reuses them). */
  connectorIds: string[];
  /** The MCP role whitelisting all 1,000 tools. */
  roleId: string;
}

const caller = INSTANCE_CALLER;

async function seedConnectors(orgId: string, data: TenantData, upstreamUrl: string): Promise<string[]> {
  const ids: string[] = [];
  for (const c of data.connectors) {
    const body = CreateConnectorBody.parse({
      type: "http",
      name: c.name,
      instructions: c.instructions,
      config: { baseUrl: `${upstreamUrl}/api/${c.domain}` },
      tools: c.tools,
    });
    const connector = await createConnector(caller, orgId, body);
    for (const r of c.resources) {
      const { text, ...rest } = r;
      await createStoredResource(caller, connector.id, CreateStoredResourceBody.parse({ ...rest, mimeType: "text/markdown", fetchConfig: { text } }));
    }
    ids.push(connector.id);
  }
  return ids;
}

/** A member: in the organization as a plain member, in the workspace with `roleId`, with a key. */
export async function seedMember(orgId: string, workspaceId: string, roleId: string, who = { email: "member@bench.example", name: "Bench member" }): Promise<string> {
  const created = await createUser(caller, CreateUserBody.parse({ ...who, orgId }));
  // The instance credential adds a new account straight away; an invitation would mean the seed ran twice.
  if (created.kind !== "user") throw new Error("the bench member already exists: seed a fresh database");
  const { user } = created;
  await addWorkspaceMember(caller, workspaceId, AddWorkspaceMemberBody.parse({ userId: user.id, mcpRoleId: roleId }));
  const key = await createApiKey(caller, workspaceId, CreateApiKeyBody.parse({ name: "bench client", userId: user.id }));
  return key.key;
}

export async function seedTenant(data: TenantData, urls: { app: string; upstream: string }): Promise<SeededTenant> {
  const org = await createOrg(caller, CreateOrgBody.parse({ name: "Bench Operations", slug: "bench-operations" }));
  const workspace = await createWorkspace(caller, org.id, CreateWorkspaceBody.parse({ name: "Operations", slug: "operations", toolWhitelistsEnabled: true }));
  const connectorIds = await seedConnectors(org.id, data, urls.upstream);
  for (const s of data.skills) {
    const connectorId = s.connector === null ? null : connectorIds[s.connector];
    await createSkill(caller, workspace.id, CreateSkillBody.parse({ name: s.name, content: s.content, connectorId, applied: true }));
  }
  const server = await createServer(
    caller,
    workspace.id,
    CreateServerBody.parse({ name: data.serverName, instructions: data.serverInstructions, connectorIds }),
    urls.app,
  );
  const tools = data.connectors.flatMap((c, i) => c.tools.map((t) => ({ connectorId: connectorIds[i], tool: t.name })));
  const role = await createRole(caller, org.id, CreateRoleBody.parse({ name: "Every tool", tools }));
  const memberKey = await seedMember(org.id, workspace.id, role.id);
  return { orgId: org.id, workspaceId: workspace.id, serverId: server.id, memberKey, connectorIds, roleId: role.id };
}

/** Closes the bench process's database pool, so its backends do not idle through the measurements. */
export async function closeDatabase(): Promise<void> {
  await db().$disconnect();
}
