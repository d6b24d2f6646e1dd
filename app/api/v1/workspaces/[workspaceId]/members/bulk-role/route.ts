import { apiRoute } from "@/lib/api/handler";
import { workspaceEndpoints as e } from "@/lib/workspaces/endpoints";
import { setWorkspaceMembersRole } from "@/lib/workspaces/members";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = apiRoute(e.setWorkspaceMembersRole, ({ caller, params, body }) => setWorkspaceMembersRole(caller, params.workspaceId, body.userIds, body.mcpRoleId));
