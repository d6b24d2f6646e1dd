import { apiRoute } from "@/lib/api/handler";
import { connectorEndpoints as e } from "@/lib/connectors/endpoints";
import { importOpenApiForOrg } from "@/lib/connectors/import-openapi-for-org";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = apiRoute(e.importOpenApi, ({ caller, params, body }) => importOpenApiForOrg(caller, params.orgId, body));
