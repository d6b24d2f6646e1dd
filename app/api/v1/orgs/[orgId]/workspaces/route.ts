import { apiRoute } from "@/lib/api/handler";
import { workspaceEndpoints as e } from "@/lib/workspaces/endpoints";
import { createWorkspace, listWorkspaces } from "@/lib/workspaces/workspaces";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.listWorkspaces, ({ caller, params, query }) => listWorkspaces(caller, params.orgId, query));
export const POST = apiRoute(e.createWorkspace, ({ caller, params, body }) => createWorkspace(caller, params.orgId, body));
