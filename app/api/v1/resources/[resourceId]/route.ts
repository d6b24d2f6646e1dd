import { apiRoute } from "@/lib/api/handler";
import { storedResourceEndpoints as e } from "@/lib/resources/endpoints";
import { deleteStoredResource, updateStoredResource } from "@/lib/resources/stored-resources";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const DELETE = apiRoute(e.deleteStoredResource, ({ caller, params, ifMatch }) => deleteStoredResource(caller, params.resourceId, ifMatch));
export const PATCH = apiRoute(e.updateStoredResource, ({ caller, params, body, ifMatch }) => updateStoredResource(caller, params.resourceId, body, ifMatch));
