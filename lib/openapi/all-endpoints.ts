import type { Endpoint } from "@/lib/api/endpoint";
import { orgEndpoints } from "@/lib/orgs/endpoints";
import { ssoEndpoints } from "@/lib/sso/endpoints";
import { userEndpoints } from "@/lib/users/endpoints";
import { orgMemberEndpoints } from "@/lib/orgs/member-endpoints";
import { workspaceEndpoints } from "@/lib/workspaces/endpoints";
import { roleEndpoints } from "@/lib/roles/endpoints";
import { serverEndpoints } from "@/lib/servers/endpoints";
import { skillEndpoints } from "@/lib/skills/endpoints";
import { apiKeyEndpoints } from "@/lib/api-keys/endpoints";
import { auditEndpoints } from "@/lib/audit/endpoints";
import { fileEndpoints } from "@/lib/files/endpoints";
import { connectorEndpoints } from "@/lib/connectors/endpoints";
import { storedResourceEndpoints } from "@/lib/resources/endpoints";
import { knowledgeGraphEndpoints } from "@/lib/knowledge-graph/endpoints";
import { invitationEndpoints } from "@/lib/invitations/endpoints";
import { usageEndpoints } from "@/lib/usage/endpoints";
import { connectorHealthEndpoints } from "@/lib/connector-health/endpoints";
import { connectedAppEndpoints } from "@/lib/oauth/endpoints";
import { connectionEndpoints } from "@/lib/connectors/upstream-auth/endpoints";
import { orgConfigEndpoints } from "@/lib/org-config/endpoints";

/** Every endpoint of the admin API; the OpenAPI document and the contract tests walk this list. */
export function allEndpoints(): Endpoint[] {
  return [orgEndpoints, userEndpoints, orgMemberEndpoints, workspaceEndpoints, roleEndpoints, serverEndpoints, skillEndpoints, apiKeyEndpoints, auditEndpoints, fileEndpoints, connectorEndpoints, storedResourceEndpoints, knowledgeGraphEndpoints, invitationEndpoints, usageEndpoints, connectorHealthEndpoints, connectedAppEndpoints, connectionEndpoints, ssoEndpoints, orgConfigEndpoints].flatMap((group) => Object.values(group) as Endpoint[]);
}
