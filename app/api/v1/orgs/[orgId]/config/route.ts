import { apiRoute } from "@/lib/api/handler";
import { orgConfigEndpoints as e } from "@/lib/org-config/endpoints";
import { exportOrgConfig } from "@/lib/org-config/export-config";
import { documentResponse } from "@/lib/org-config/http";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.getOrgConfig, async ({ caller, params, request }) => {
  const { document, etag } = await exportOrgConfig(caller, params.orgId);
  return documentResponse(document, etag, request);
});
