import { db } from "@/lib/db/client";
import { sealHeaders } from "@/lib/connectors/secret-headers";
import { connectorEndpoints as c } from "@/lib/connectors/endpoints";
import { storedResourceEndpoints as r } from "@/lib/resources/endpoints";
import { knowledgeGraphEndpoints as g } from "@/lib/knowledge-graph/endpoints";
import { makeConnector, type Tenant } from "@/tests/helpers/factories";
import type { MatrixCase, MatrixTarget } from "@/tests/integration/matrix/types";

/** Cross-tenant cases for connectors, their stored resources and their manual knowledge graph. */

const MISSING = "id_missing_000";
const MISSING_RESOURCE = "00000000-0000-4000-8000-000000000000";

/** Everything connector-shaped the organization owns, to prove an outsider changed nothing. */
const orgConnectors = (t: Tenant) => () =>
  db().connector.findMany({
    where: { orgId: t.org.id },
    orderBy: { id: "asc" },
    include: {
      tools: { orderBy: { id: "asc" } },
      resources: { orderBy: { id: "asc" } },
      graphEntities: { orderBy: { id: "asc" } },
      graphRelations: { orderBy: { id: "asc" } },
    },
  });

/** A connector made directly in the database (no upstream is ever contacted by these cases). */
async function connectorOf(t: Tenant, type: "http" | "mcp" = "http"): Promise<string> {
  const connector = await makeConnector(t, {
    type,
    secretHeaders: sealHeaders({ Authorization: "Bearer matrix-secret" }),
    tools: [{ name: "get_customer", request: type === "http" ? { method: "GET", path: "/customers/{id}" } : undefined }],
    resources: { create: [{ uri: "crm://schema", name: "Schema" }] },
    graphEntities: { create: [{ orgId: t.org.id, key: "customer", label: "Customer" }] },
  });
  return connector.id;
}

const onOrg = (body?: unknown) => async (t: Tenant): Promise<MatrixTarget> => ({
  path: `/api/v1/orgs/${t.org.id}/connectors`,
  missingPath: `/api/v1/orgs/${MISSING}/connectors`,
  body,
  snapshot: orgConnectors(t),
});

const onConnector = (suffix = "", body?: unknown, type: "http" | "mcp" = "http") => async (t: Tenant): Promise<MatrixTarget> => ({
  path: `/api/v1/connectors/${await connectorOf(t, type)}${suffix}`,
  missingPath: `/api/v1/connectors/${MISSING}${suffix}`,
  body,
  snapshot: orgConnectors(t),
});

const onResource = async (t: Tenant): Promise<MatrixTarget> => {
  const connectorId = await connectorOf(t);
  const resource = await db().storedResource.findFirstOrThrow({ where: { connectorId }, select: { id: true } });
  return { path: `/api/v1/resources/${resource.id}`, missingPath: `/api/v1/resources/${MISSING_RESOURCE}`, snapshot: orgConnectors(t) };
};

/** A bulk delete naming the connector's own tool: an outsider's request must remove nothing. */
const onConnectorTools = async (t: Tenant): Promise<MatrixTarget> => {
  const connectorId = await connectorOf(t);
  const tool = await db().tool.findFirstOrThrow({ where: { connectorId, orgId: t.org.id }, select: { id: true } });
  return {
    path: `/api/v1/connectors/${connectorId}/tools/bulk-delete`,
    missingPath: `/api/v1/connectors/${MISSING}/tools/bulk-delete`,
    body: { ids: [tool.id] },
    snapshot: orgConnectors(t),
  };
};

const httpConnectorBody = {
  name: "CRM",
  type: "http",
  config: { baseUrl: "https://api.example.com", headers: { Authorization: "Bearer x" } },
  tools: [{ name: "get_customer", request: { method: "GET", path: "/customers/{id}" } }],
};

const admins = ["otherOrg", "member"] as const;

export const connectorCases: MatrixCase[] = [
  { endpoint: c.listConnectors, setup: onOrg(), outsiders: [...admins] },
  { endpoint: c.createConnector, setup: onOrg(httpConnectorBody), outsiders: [...admins] },
  { endpoint: c.importOpenApi, setup: async (t) => ({ ...(await onOrg({ document: '{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{}}' })(t)), path: `/api/v1/orgs/${t.org.id}/connectors/import-openapi`, missingPath: `/api/v1/orgs/${MISSING}/connectors/import-openapi` }), outsiders: [...admins] },
  { endpoint: c.getConnector, setup: onConnector(), outsiders: [...admins] },
  { endpoint: c.updateConnector, setup: onConnector("", { name: "Renamed", config: { headers: {} }, tools: [] }), outsiders: [...admins] },
  { endpoint: c.deleteConnector, setup: onConnector(), outsiders: [...admins] },
  { endpoint: c.reloadConnector, setup: onConnector("/reload", undefined, "mcp"), outsiders: [...admins] },
  { endpoint: c.listConnectorTools, setup: onConnector("/tools"), outsiders: [...admins] },
  { endpoint: c.approveConnectorTool, setup: onConnector("/tools/get_customer/approve", undefined, "mcp"), outsiders: [...admins] },
  { endpoint: c.deleteConnectorTools, setup: onConnectorTools, outsiders: [...admins] },

  { endpoint: r.createStoredResource, setup: onConnector("/resources", { uri: "crm://new", name: "New" }), outsiders: [...admins] },
  { endpoint: r.listStoredResources, setup: onConnector("/resources"), outsiders: [...admins] },
  { endpoint: r.updateStoredResource, setup: async (t) => ({ ...(await onResource(t)), body: { name: "Renamed" } }), outsiders: [...admins] },
  { endpoint: r.deleteStoredResource, setup: onResource, outsiders: [...admins] },

  { endpoint: g.getManualGraph, setup: onConnector("/graph"), outsiders: [...admins] },
  { endpoint: g.putManualGraph, setup: onConnector("/graph", { entities: [], relations: [] }), outsiders: [...admins] },
];
