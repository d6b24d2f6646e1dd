import { describe, expect, it } from "vitest";
import { type Caller, INSTANCE_CALLER } from "@/lib/auth/caller";
import { callerFromBearer } from "@/lib/auth/resolve-bearer";
import { NotFoundError } from "@/lib/errors";
import { findServerHead } from "@/lib/mcp/visibility/load-snapshot";
import { previewCaller } from "@/lib/mcp/preview-caller";
import { resolveCallerView } from "@/lib/mcp/visibility/resolve-view";
import { api } from "@/tests/helpers/api";
import { createApiKeyFor, createTenant, createUser, createWorkspace, makeMember } from "@/tests/helpers/factories";

/**
 * Which MCP servers a caller can reach is decided inside the server lookup's own query
 * (organization, workspace, API key pin), not by comparing ids in code after loading the
 * server by its bare id.
 */

const asUser = (userId: string): Caller => ({ kind: "user", userId, apiKey: null });
const keyCaller = async (token: string) => (await callerFromBearer(token))!;

async function setup() {
  const t = await createTenant();
  const server = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "S" });
  const other = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Other" });
  return { t, serverId: server.body.id as string, otherServerId: other.body.id as string };
}

describe("findServerHead(caller, serverId): the caller's reach is part of the query", () => {
  it("finds the server for the instance credential, the workspace's members and the org's admins", async () => {
    const { t, serverId } = await setup();
    for (const caller of [INSTANCE_CALLER, await keyCaller(t.member.token), await keyCaller(t.admin.token), asUser(t.owner.user.id)]) {
      expect((await findServerHead(caller, serverId))?.id).toBe(serverId);
    }
  });

  it("finds nothing for another org's key, a key of another workspace of the org, a key pinned elsewhere, or a stranger", async () => {
    const { t, serverId, otherServerId } = await setup();
    const otherOrg = await createTenant();
    const ws2 = await createWorkspace(t.org.id);
    const colleague = await makeMember({ orgId: t.org.id, workspaceId: ws2.id }, { role: "member", label: "colleague" });
    const otherWorkspaceKey = await createApiKeyFor(colleague, { id: ws2.id, orgId: t.org.id });
    // An org admin's key of the other workspace: admin of the org, but the key is bound to ws2.
    const adminElsewhere = await createApiKeyFor(t.admin.user, { id: ws2.id, orgId: t.org.id });
    const pinnedElsewhere = await createApiKeyFor(t.member.user, { id: t.workspace.id, orgId: t.org.id }, { serverId: otherServerId });
    const stranger = await createUser("stranger");

    const outsiders: Caller[] = [
      await keyCaller(otherOrg.owner.token),
      await keyCaller(otherWorkspaceKey.token),
      await keyCaller(adminElsewhere.token),
      await keyCaller(pinnedElsewhere.token),
      asUser(stranger.id),
      asUser(colleague.id), // an org member, but not of this workspace
    ];
    for (const caller of outsiders) {
      expect(await findServerHead(caller, serverId)).toBeNull();
      expect(await resolveCallerView(caller, serverId)).toBeNull();
    }
    // The pinned key still reaches its own server.
    expect((await findServerHead(await keyCaller(pinnedElsewhere.token), otherServerId))?.id).toBe(otherServerId);
  });
});

describe("previewCaller: the role must be one of the server's organization, in the query", () => {
  it("an admin of two organizations cannot preview one org's role on the other's server", async () => {
    const { t, serverId } = await setup();
    const second = await createTenant();
    await makeMember({ orgId: second.org.id }, { user: t.admin.user, role: "admin", workspace: false });
    const foreignRole = await api(second.owner.token).post(`/api/v1/orgs/${second.org.id}/roles`, { name: "R", tools: [] });
    expect(foreignRole.status).toBe(201);
    await expect(previewCaller(asUser(t.admin.user.id), serverId, { kind: "role", roleId: foreignRole.body.id })).rejects.toBeInstanceOf(NotFoundError);
    const ownRole = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/roles`, { name: "R", tools: [] });
    expect((await previewCaller(asUser(t.admin.user.id), serverId, { kind: "role", roleId: ownRole.body.id })).exists).toBe(true);
  });
});
