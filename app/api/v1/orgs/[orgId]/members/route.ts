import { Answer, apiRoute } from "@/lib/api/handler";
import { orgMemberEndpoints as e } from "@/lib/orgs/member-endpoints";
import { addOrgMember, listOrgMembers } from "@/lib/orgs/members";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.listOrgMembers, ({ caller, params, query }) => listOrgMembers(caller, params.orgId, query));
export const POST = apiRoute(e.addOrgMember, async ({ caller, params, body }) => {
  const added = await addOrgMember(caller, params.orgId, body);
  return added.kind === "member" ? added.member : new Answer(202, added.invitation);
});
