import { db } from "@/lib/db/client";
import { serverEndpoints as servers } from "@/lib/servers/endpoints";
import { skillEndpoints as skills } from "@/lib/skills/endpoints";
import { apiKeyEndpoints as apiKeys } from "@/lib/api-keys/endpoints";
import { auditEndpoints as audit } from "@/lib/audit/endpoints";
import { fileEndpoints as files } from "@/lib/files/endpoints";
import { createApiKeyFor, makeConnector, makeFile, makeServer, makeSkill, type Tenant } from "@/tests/helpers/factories";
import type { MatrixCase, MatrixTarget, Outsider } from "@/tests/integration/matrix/types";

/** Objects that live in a workspace (servers, skills, API keys, files) and the org audit log. */

const MISSING_WS = "ws_missing_000";
const everyone: Outsider[] = ["otherOrg", "otherWorkspace", "member"];
const strangers: Outsider[] = ["otherOrg", "otherWorkspace"];

/** A route under the tenant's workspace; the snapshot is every row of `table` in it. */
function inWorkspace(suffix: string, rows: (workspaceId: string) => Promise<unknown>, body?: unknown) {
  return async (t: Tenant): Promise<MatrixTarget> => ({
    path: `/api/v1/workspaces/${t.workspace.id}/${suffix}`,
    missingPath: `/api/v1/workspaces/${MISSING_WS}/${suffix}`,
    body,
    snapshot: () => rows(t.workspace.id),
  });
}

const serverRows = (workspaceId: string) => db().mcpServer.findMany({ where: { workspaceId }, include: { connectors: true }, orderBy: { id: "asc" } });
const skillRows = (workspaceId: string) => db().skill.findMany({ where: { workspaceId }, orderBy: { id: "asc" } });
const keyRows = (workspaceId: string) => db().apiKey.findMany({ where: { workspaceId }, select: { id: true, revokedAt: true, name: true }, orderBy: { id: "asc" } });
const fileRows = (workspaceId: string) => db().file.findMany({ where: { workspaceId }, orderBy: { id: "asc" } });

function serverTarget(suffix = "", body?: unknown) {
  return async (t: Tenant): Promise<MatrixTarget> => {
    const connector = await makeConnector(t, { name: "CRM", slug: "crm" });
    const server = await makeServer(t, { name: "Main", connectorIds: [connector.id] });
    return {
      path: `/api/v1/servers/${server.id}${suffix}`,
      missingPath: `/api/v1/servers/srv_missing_000${suffix}`,
      body,
      snapshot: () => db().mcpServer.findUnique({ where: { id: server.id }, include: { connectors: true, toolOverrides: true } }),
    };
  };
}

function skillTarget(body?: unknown) {
  return async (t: Tenant): Promise<MatrixTarget> => {
    const skill = await makeSkill(t, { name: "Tone", content: "Be brief." });
    return {
      path: `/api/v1/skills/${skill.id}`,
      missingPath: "/api/v1/skills/skill_missing_000",
      body,
      snapshot: () => db().skill.findUnique({ where: { id: skill.id } }),
    };
  };
}

/** The admin's key: a plain member may not revoke it either. */
async function adminKeyTarget(t: Tenant): Promise<MatrixTarget> {
  const { apiKeyId } = await createApiKeyFor(t.admin.user, { id: t.workspace.id, orgId: t.org.id });
  return {
    path: `/api/v1/api-keys/${apiKeyId}`,
    missingPath: "/api/v1/api-keys/key_missing_000",
    snapshot: () => db().apiKey.findUnique({ where: { id: apiKeyId }, select: { revokedAt: true } }),
  };
}

/** A private file of the owner: invisible to the plain member too. */
function fileTarget(suffix = "", body?: unknown) {
  return async (t: Tenant): Promise<MatrixTarget> => {
    const { id: uniqueId } = await makeFile(t, { ownerId: t.owner.user.id, name: "a.txt" });
    return {
      path: `/api/v1/files/${uniqueId}${suffix}`,
      missingPath: `/api/v1/files/fl_${"0".repeat(24)}${suffix}`,
      body,
      snapshot: () => db().file.findUnique({ where: { id: uniqueId } }),
    };
  };
}

async function auditTarget(t: Tenant): Promise<MatrixTarget> {
  await db().auditEvent.create({ data: { orgId: t.org.id, actorType: "instance", action: "test.event", targetType: "org", targetId: t.org.id } });
  return {
    path: `/api/v1/orgs/${t.org.id}/audit`,
    missingPath: "/api/v1/orgs/org_missing_000/audit",
    snapshot: () => db().auditEvent.count({ where: { orgId: t.org.id } }),
  };
}

export const workspaceObjectCases: MatrixCase[] = [
  { endpoint: servers.listServers, setup: inWorkspace("servers", serverRows), outsiders: everyone },
  { endpoint: servers.createServer, setup: inWorkspace("servers", serverRows, { name: "Sneaky" }), outsiders: everyone },
  { endpoint: servers.getServer, setup: serverTarget(), outsiders: everyone },
  { endpoint: servers.updateServer, setup: serverTarget("", { name: "Renamed", connectorIds: [] }), outsiders: everyone },
  { endpoint: servers.deleteServer, setup: serverTarget(), outsiders: everyone },
  { endpoint: servers.setServerConnectors, setup: serverTarget("/connectors", { connectorIds: [] }), outsiders: everyone },
  { endpoint: servers.getToolOverrides, setup: serverTarget("/tool-overrides"), outsiders: everyone },
  { endpoint: servers.setToolOverrides, setup: serverTarget("/tool-overrides", { items: [] }), outsiders: everyone },

  { endpoint: skills.listSkills, setup: inWorkspace("skills", skillRows), outsiders: everyone },
  { endpoint: skills.createSkill, setup: inWorkspace("skills", skillRows, { name: "Sneaky", content: "x" }), outsiders: everyone },
  { endpoint: skills.getSkill, setup: skillTarget(), outsiders: everyone },
  { endpoint: skills.updateSkill, setup: skillTarget({ content: "changed" }), outsiders: everyone },
  { endpoint: skills.deleteSkill, setup: skillTarget(), outsiders: everyone },

  { endpoint: apiKeys.listApiKeys, setup: inWorkspace("api-keys", keyRows), outsiders: strangers },
  { endpoint: apiKeys.createApiKey, setup: inWorkspace("api-keys", keyRows, { name: "Sneaky" }), outsiders: strangers },
  { endpoint: apiKeys.revokeApiKey, setup: adminKeyTarget, outsiders: everyone },

  { endpoint: audit.listAuditEvents, setup: auditTarget, outsiders: everyone },

  { endpoint: files.uploadFile, setup: inWorkspace("files", fileRows), outsiders: strangers },
  { endpoint: files.listFiles, setup: inWorkspace("files", fileRows), outsiders: strangers },
  { endpoint: files.getFile, setup: fileTarget(), outsiders: everyone },
  { endpoint: files.updateFile, setup: fileTarget("", { name: "renamed.txt" }), outsiders: everyone },
  { endpoint: files.deleteFile, setup: fileTarget(), outsiders: everyone },
  { endpoint: files.getFileContent, setup: fileTarget("/content"), outsiders: everyone },
];
