import { apiRoute } from "@/lib/api/handler";
import { ssoEndpoints as e } from "@/lib/sso/endpoints";
import { deleteOrgSso, getOrgSso, putOrgSso } from "@/lib/sso/sso-connections";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.getOrgSso, ({ caller, params }) => getOrgSso(caller, params.orgId));
export const PUT = apiRoute(e.putOrgSso, ({ caller, params, body }) => putOrgSso(caller, params.orgId, body));
export const DELETE = apiRoute(e.deleteOrgSso, ({ caller, params }) => deleteOrgSso(caller, params.orgId));
