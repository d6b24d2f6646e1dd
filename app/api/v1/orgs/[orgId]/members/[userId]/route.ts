import { apiRoute } from "@/lib/api/handler";
import { orgMemberEndpoints as e } from "@/lib/orgs/member-endpoints";
import { removeOrgMember, updateOrgMember } from "@/lib/orgs/members";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const PATCH = apiRoute(e.updateOrgMember, ({ caller, params, body }) => updateOrgMember(caller, params.orgId, params.userId, body));
export const DELETE = apiRoute(e.removeOrgMember, ({ caller, params }) => removeOrgMember(caller, params.orgId, params.userId));
