import { apiRoute } from "@/lib/api/handler";
import { orgEndpoints as e } from "@/lib/orgs/endpoints";
import { createOrg, listOrgs } from "@/lib/orgs/orgs";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.listOrgs, ({ caller, query }) => listOrgs(caller, query));
export const POST = apiRoute(e.createOrg, ({ caller, body }) => createOrg(caller, body));
