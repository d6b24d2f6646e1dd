import { z } from "zod";
import { endpoint } from "@/lib/api/endpoint";
import { Id } from "@/lib/schemas/common";
import { ConfigApplyResult, ConfigPlan, ConfigPlanQuery, OrgConfigDocument, PutSecretBody } from "@/lib/org-config/schemas";

const tag = "Configuration as code";
const orgParams = z.object({ orgId: Id });
const DUPLICATES = "Two objects of the organization share the name the document keys them by (named in the detail)";

/**
 * The organization as one document (docs/configuration-as-code.md). The document is YAML
 * (`application/yaml`, the default answer) or JSON; plan and apply read either.
 */
export const orgConfigEndpoints = {
  getOrgConfig: endpoint({
    operationId: "getOrgConfig",
    etag: true,
    yaml: true,
    method: "GET",
    path: "/orgs/{orgId}/config",
    tag,
    summary: "Export the organization's configuration as one document (YAML by default, JSON with Accept: application/json)",
    params: orgParams,
    response: OrgConfigDocument,
    conflict: DUPLICATES,
  }),
  planOrgConfig: endpoint({
    operationId: "planOrgConfig",
    etag: true,
    yaml: true,
    method: "POST",
    path: "/orgs/{orgId}/config/plan",
    tag,
    summary: "The changes a configuration document (YAML or JSON) would make; nothing is applied",
    params: orgParams,
    query: ConfigPlanQuery,
    body: OrgConfigDocument,
    response: ConfigPlan,
    conflict: DUPLICATES,
  }),
  applyOrgConfig: endpoint({
    operationId: "applyOrgConfig",
    etag: true,
    ifMatch: true,
    yaml: true,
    method: "POST",
    path: "/orgs/{orgId}/config/apply",
    tag,
    summary: "Apply a configuration document (YAML or JSON) in one transaction, audited with its plan",
    params: orgParams,
    query: ConfigPlanQuery,
    body: OrgConfigDocument,
    response: ConfigApplyResult,
    conflict: DUPLICATES,
  }),
  setOrgSecret: endpoint({
    operationId: "setOrgSecret",
    method: "PUT",
    path: "/orgs/{orgId}/secrets/{name}",
    tag,
    summary: "Set a secret that configuration documents reference as ${secret:NAME} (write-only, stored encrypted)",
    // Checked by putOrgSecret: a name that cannot be a secret's is a 422 saying why, not "not found".
    params: z.object({ orgId: Id, name: z.string().meta({ description: "The secret's name: a letter or '_' then up to 127 letters, digits, '_', '.' or '-' (422 otherwise)." }) }),
    body: PutSecretBody,
    status: 204,
  }),
};
