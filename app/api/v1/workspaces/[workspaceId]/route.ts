import { apiRoute } from "@/lib/api/handler";
import { workspaceEndpoints as e } from "@/lib/workspaces/endpoints";
import { deleteWorkspace, getWorkspace, updateWorkspace } from "@/lib/workspaces/workspaces";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.getWorkspace, ({ caller, params }) => getWorkspace(caller, params.workspaceId));
export const PATCH = apiRoute(e.updateWorkspace, ({ caller, params, body, ifMatch }) => updateWorkspace(caller, params.workspaceId, body, ifMatch));
export const DELETE = apiRoute(e.deleteWorkspace, ({ caller, params, ifMatch }) => deleteWorkspace(caller, params.workspaceId, ifMatch));
