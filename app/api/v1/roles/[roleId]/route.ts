import { apiRoute } from "@/lib/api/handler";
import { roleEndpoints as e } from "@/lib/roles/endpoints";
import { deleteRole, getRole, updateRole } from "@/lib/roles/roles";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.getRole, ({ caller, params }) => getRole(caller, params.roleId));
export const PATCH = apiRoute(e.updateRole, ({ caller, params, body, ifMatch }) => updateRole(caller, params.roleId, body, ifMatch));
export const DELETE = apiRoute(e.deleteRole, ({ caller, params, ifMatch }) => deleteRole(caller, params.roleId, ifMatch));
