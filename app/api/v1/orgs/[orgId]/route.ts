import { apiRoute } from "@/lib/api/handler";
import { orgEndpoints as e } from "@/lib/orgs/endpoints";
import { deleteOrg, getOrgOrThrow, updateOrg } from "@/lib/orgs/orgs";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.getOrg, ({ caller, params }) => getOrgOrThrow(caller, params.orgId));
export const PATCH = apiRoute(e.updateOrg, ({ caller, params, body, ifMatch }) => updateOrg(caller, params.orgId, body, ifMatch));
export const DELETE = apiRoute(e.deleteOrg, ({ caller, params, ifMatch }) => deleteOrg(caller, params.orgId, ifMatch));
