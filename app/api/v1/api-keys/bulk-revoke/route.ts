import { apiRoute } from "@/lib/api/handler";
import { apiKeyEndpoints as e } from "@/lib/api-keys/endpoints";
import { revokeApiKeys } from "@/lib/api-keys/api-keys";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = apiRoute(e.revokeApiKeys, ({ caller, body }) => revokeApiKeys(caller, body.ids));
