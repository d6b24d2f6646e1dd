import { apiRoute } from "@/lib/api/handler";
import { storedResourceEndpoints as e } from "@/lib/resources/endpoints";
import { deleteStoredResources } from "@/lib/resources/stored-resources";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = apiRoute(e.deleteStoredResources, ({ caller, body }) => deleteStoredResources(caller, body.ids));
