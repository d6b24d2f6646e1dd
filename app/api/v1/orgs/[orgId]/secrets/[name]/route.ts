import { apiRoute } from "@/lib/api/handler";
import { orgConfigEndpoints as e } from "@/lib/org-config/endpoints";
import { putOrgSecret } from "@/lib/org-config/secrets";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const PUT = apiRoute(e.setOrgSecret, ({ caller, params, body }) => putOrgSecret(caller, params.orgId, params.name, body.value));
