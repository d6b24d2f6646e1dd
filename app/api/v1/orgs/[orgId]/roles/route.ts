import { apiRoute } from "@/lib/api/handler";
import { roleEndpoints as e } from "@/lib/roles/endpoints";
import { createRole, listRoles } from "@/lib/roles/roles";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.listRoles, ({ caller, params, query }) => listRoles(caller, params.orgId, query));
export const POST = apiRoute(e.createRole, ({ caller, params, body }) => createRole(caller, params.orgId, body));
