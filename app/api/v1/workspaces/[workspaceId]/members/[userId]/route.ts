import { apiRoute } from "@/lib/api/handler";
import { workspaceEndpoints as e } from "@/lib/workspaces/endpoints";
import { removeWorkspaceMember, updateWorkspaceMember } from "@/lib/workspaces/members";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const PATCH = apiRoute(e.updateWorkspaceMember, ({ caller, params, body }) => updateWorkspaceMember(caller, params.workspaceId, params.userId, body));
export const DELETE = apiRoute(e.removeWorkspaceMember, ({ caller, params }) => removeWorkspaceMember(caller, params.workspaceId, params.userId));
