import { apiRoute } from "@/lib/api/handler";
import { workspaceEndpoints as e } from "@/lib/workspaces/endpoints";
import { addWorkspaceMember, listWorkspaceMembers } from "@/lib/workspaces/members";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.listWorkspaceMembers, ({ caller, params, query }) => listWorkspaceMembers(caller, params.workspaceId, query));
export const POST = apiRoute(e.addWorkspaceMember, ({ caller, params, body }) => addWorkspaceMember(caller, params.workspaceId, body));
