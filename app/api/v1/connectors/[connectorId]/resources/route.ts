import { apiRoute } from "@/lib/api/handler";
import { storedResourceEndpoints as e } from "@/lib/resources/endpoints";
import { createStoredResource, listStoredResources } from "@/lib/resources/stored-resources";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.listStoredResources, ({ caller, params, query }) => listStoredResources(caller, params.connectorId, query));
export const POST = apiRoute(e.createStoredResource, ({ caller, params, body }) => createStoredResource(caller, params.connectorId, body));
