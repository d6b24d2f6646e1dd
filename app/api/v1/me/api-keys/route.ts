import { apiRoute } from "@/lib/api/handler";
import { apiKeyEndpoints as e } from "@/lib/api-keys/endpoints";
import { listMyApiKeys } from "@/lib/api-keys/api-keys";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.listMyApiKeys, ({ caller, query }) => listMyApiKeys(caller, query));
