import { apiRoute } from "@/lib/api/handler";
import { apiKeyEndpoints as e } from "@/lib/api-keys/endpoints";
import { createApiKey, listApiKeys } from "@/lib/api-keys/api-keys";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.listApiKeys, ({ caller, params, query }) => listApiKeys(caller, params.workspaceId, query));
export const POST = apiRoute(e.createApiKey, ({ caller, params, body }) => createApiKey(caller, params.workspaceId, body));
