import { db } from "@/lib/db/client";
import { connectorHealthEndpoints as h } from "@/lib/connector-health/endpoints";
import { auditEndpoints as a } from "@/lib/audit/endpoints";
import { usageEndpoints as u } from "@/lib/usage/endpoints";
import { ssoEndpoints as s } from "@/lib/sso/endpoints";
import { workspaceEndpoints as w } from "@/lib/workspaces/endpoints";
import { createHttpConnector, createOrgSso, uniqueSuffix, type Tenant } from "@/tests/helpers/factories";
import type { MatrixCase, MatrixTarget, Outsider } from "@/tests/integration/matrix/types";

/**
 * Cross-tenant cases for the operators' endpoints: usage, connector health, audit export,
 * single sign-on and the bulk role assignment. Each answers an outsider exactly like a missing id.
 */

const MISSING = "id_missing_000";
const admins: Outsider[] = ["otherOrg", "member"];
const strangers: Outsider[] = ["otherOrg", "otherWorkspace", "member"];

const onOrg = (suffix: string, body?: unknown) => async (t: Tenant): Promise<MatrixTarget> => ({
  path: `/api/v1/orgs/${t.org.id}${suffix}`,
  missingPath: `/api/v1/orgs/${MISSING}${suffix}`,
  body,
  snapshot: async () => ({
    sso: await db().ssoConnection.findMany({ where: { orgId: t.org.id } }),
    events: await db().auditEvent.count({ where: { orgId: t.org.id } }),
  }),
});

const onWorkspace = (suffix: string, body?: (t: Tenant) => unknown) => async (t: Tenant): Promise<MatrixTarget> => ({
  path: `/api/v1/workspaces/${t.workspace.id}${suffix}`,
  missingPath: `/api/v1/workspaces/${MISSING}${suffix}`,
  body: body?.(t),
  snapshot: () => db().workspaceMember.findMany({ where: { workspaceId: t.workspace.id, workspace: { orgId: t.org.id } }, orderBy: { userId: "asc" } }),
});

const onConnector = (suffix: string, body?: unknown) => async (t: Tenant): Promise<MatrixTarget> => {
  const connectorId = await createHttpConnector(t, "CRM", ["get_customer"]);
  return {
    path: `/api/v1/connectors/${connectorId}${suffix}`,
    missingPath: `/api/v1/connectors/${MISSING}${suffix}`,
    body,
    snapshot: () => db().connectorHealth.findMany({ where: { connectorId, orgId: t.org.id } }),
  };
};

const onSsoDomain = async (t: Tenant): Promise<MatrixTarget> => {
  const domain = `matrix-${uniqueSuffix()}.example.com`;
  await createOrgSso(t, [domain]);
  return {
    path: `/api/v1/orgs/${t.org.id}/sso/domains/${domain}/verify`,
    missingPath: `/api/v1/orgs/${MISSING}/sso/domains/${domain}/verify`,
    snapshot: async () => ({
      domains: await db().ssoDomain.findMany({ where: { orgId: t.org.id } }),
      events: await db().auditEvent.count({ where: { orgId: t.org.id } }),
    }),
  };
};

const ssoBody = { issuer: "https://idp.example.com", clientId: "switchboard", clientSecret: "s3cret", domains: ["matrix.example.com"], joinNewUsers: false };

export const operationsCases: MatrixCase[] = [
  { endpoint: u.orgUsage, setup: onOrg("/usage"), outsiders: admins },
  { endpoint: u.workspaceUsage, setup: onWorkspace("/usage"), outsiders: strangers },
  { endpoint: a.exportAuditEvents, setup: onOrg("/audit/export?format=jsonl"), outsiders: admins },
  { endpoint: h.getConnectorHealth, setup: onConnector("/health"), outsiders: admins },
  { endpoint: h.testConnector, setup: onConnector("/test"), outsiders: admins },
  { endpoint: h.setConnectorProbe, setup: onConnector("/probe", { method: "GET", path: "/health" }), outsiders: admins },
  { endpoint: s.getOrgSso, setup: onOrg("/sso"), outsiders: admins },
  { endpoint: s.putOrgSso, setup: onOrg("/sso", ssoBody), outsiders: admins },
  { endpoint: s.verifyOrgSsoDomain, setup: onSsoDomain, outsiders: admins },
  { endpoint: s.deleteOrgSso, setup: onOrg("/sso"), outsiders: admins },
  { endpoint: w.setWorkspaceMembersRole, setup: onWorkspace("/members/bulk-role", (t) => ({ userIds: [t.member.user.id], mcpRoleId: null })), outsiders: strangers },
];
