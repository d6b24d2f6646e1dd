/**
 * The second workspace of the bench organization, for issue 11's target "/mcp (shared) with 10
 * servers of 100 tools each": 10 servers, each assigning 5 of the tenant's 50 connectors (100
 * tools per server, the same 1,000 distinct tools in all, so the shared endpoint lists exactly
 * the names of the per-server endpoint), tool whitelists on, and a plain member holding the
 * role that whitelists every tool, with an API key of this workspace (not pinned to a server:
 * it is served the union of all 10). Stored through lib/ like bench/mcp/seed-tenant.ts.
 */
import { INSTANCE_CALLER } from "@/lib/auth/caller";
import { createServer } from "@/lib/servers/servers";
import { CreateServerBody } from "@/lib/servers/schemas";
import { createWorkspace } from "@/lib/workspaces/workspaces";
import { CreateWorkspaceBody } from "@/lib/workspaces/schemas";
import { seedMember, type SeededTenant } from "./seed-tenant";

export const SHARED_SERVERS = 10;
const CONNECTORS_PER_SERVER = 5;

export interface SeededSharedWorkspace {
  workspaceId: string;
  serverIds: string[];
  /** The shared member's API key: what its client sends to /mcp. */
  memberKey: string;
}

export async function seedSharedWorkspace(tenant: SeededTenant, appUrl: string): Promise<SeededSharedWorkspace> {
  if (tenant.connectorIds.length !== SHARED_SERVERS * CONNECTORS_PER_SERVER) {
    throw new Error(`the shared workspace splits ${SHARED_SERVERS * CONNECTORS_PER_SERVER} connectors, the tenant has ${tenant.connectorIds.length}`);
  }
  const workspace = await createWorkspace(INSTANCE_CALLER, tenant.orgId, CreateWorkspaceBody.parse({ name: "Shared", slug: "shared", toolWhitelistsEnabled: true }));
  const serverIds: string[] = [];
  // One at a time: /mcp lists servers in creation order, so the union follows the tenant's order.
  for (let i = 0; i < SHARED_SERVERS; i++) {
    const connectorIds = tenant.connectorIds.slice(i * CONNECTORS_PER_SERVER, (i + 1) * CONNECTORS_PER_SERVER);
    const body = CreateServerBody.parse({ name: `Shared ${String(i + 1).padStart(2, "0")}`, instructions: `Part ${i + 1} of ${SHARED_SERVERS} of the operations APIs.`, connectorIds });
    serverIds.push((await createServer(INSTANCE_CALLER, workspace.id, body, appUrl)).id);
  }
  const memberKey = await seedMember(tenant.orgId, workspace.id, tenant.roleId, { email: "shared-member@bench.example", name: "Bench shared member" });
  return { workspaceId: workspace.id, serverIds, memberKey };
}
