import { apiRoute } from "@/lib/api/handler";
import { orgConfigEndpoints as e } from "@/lib/org-config/endpoints";
import { planOrgConfig } from "@/lib/org-config/apply-config";
import { jsonWithEtag, readConfigDocument } from "@/lib/org-config/http";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// The body is read here, not by apiRoute: it may be YAML as well as JSON.
export const POST = apiRoute({ ...e.planOrgConfig, body: undefined }, async ({ caller, params, query, request }) => {
  const { changes, etag } = await planOrgConfig(caller, params.orgId, await readConfigDocument(request), query.prune === "true");
  return jsonWithEtag({ changes }, etag);
});
