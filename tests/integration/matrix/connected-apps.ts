import { db } from "@/lib/db/client";
import { connectedAppEndpoints as apps } from "@/lib/oauth/endpoints";
import { type Tenant, uniqueSuffix } from "@/tests/helpers/factories";
import type { MatrixCase, MatrixTarget, Outsider } from "@/tests/integration/matrix/types";

const everyone: Outsider[] = ["otherOrg", "otherWorkspace", "member"];

/** An app the tenant's admin allowed for the tenant's workspace (a grant, as the consent page stores it). */
async function adminGrant(t: Tenant): Promise<string> {
  const clientId = `client-${uniqueSuffix()}`;
  await db().oauthClient.create({ data: { clientId, name: "Some app", redirectUris: ["http://127.0.0.1:9/callback"] } });
  const grant = await db().oauthGrant.create({
    data: { orgId: t.org.id, workspaceId: t.workspace.id, userId: t.admin.user.id, clientId, resource: "http://localhost/mcp", serverIds: [] },
    select: { id: true },
  });
  return grant.id;
}

async function orgAppsTarget(t: Tenant): Promise<MatrixTarget> {
  await adminGrant(t);
  return {
    path: `/api/v1/orgs/${t.org.id}/connected-apps`,
    missingPath: "/api/v1/orgs/org_missing_000/connected-apps",
    snapshot: () => db().oauthGrant.count({ where: { orgId: t.org.id } }),
  };
}

async function revokeTarget(t: Tenant): Promise<MatrixTarget> {
  const grantId = await adminGrant(t);
  return {
    path: `/api/v1/connected-apps/${grantId}`,
    missingPath: "/api/v1/connected-apps/grant_missing_000",
    snapshot: () => db().oauthGrant.findFirst({ where: { id: grantId, orgId: t.org.id }, select: { revokedAt: true } }),
  };
}

export const connectedAppCases: MatrixCase[] = [
  { endpoint: apps.listOrgConnectedApps, setup: orgAppsTarget, outsiders: everyone },
  { endpoint: apps.revokeConnectedApp, setup: revokeTarget, outsiders: everyone },
];
