import { apiRoute } from "@/lib/api/handler";
import { ssoEndpoints as e } from "@/lib/sso/endpoints";
import { verifySsoDomain } from "@/lib/sso/verify-sso-domain";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = apiRoute(e.verifyOrgSsoDomain, ({ caller, params }) => verifySsoDomain(caller, params.orgId, params.domain));
