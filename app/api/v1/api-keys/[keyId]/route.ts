import { apiRoute } from "@/lib/api/handler";
import { apiKeyEndpoints as e } from "@/lib/api-keys/endpoints";
import { revokeApiKey } from "@/lib/api-keys/api-keys";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const DELETE = apiRoute(e.revokeApiKey, ({ caller, params }) => revokeApiKey(caller, params.keyId));
