import { apiRoute } from "@/lib/api/handler";
import { invitationEndpoints as e } from "@/lib/invitations/endpoints";
import { createInvitation } from "@/lib/invitations/invite-to-org";
import { publicBaseUrl } from "@/lib/servers/server-url";
import { listOrgInvitations } from "@/lib/invitations/manage-invitations";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.listOrgInvitations, ({ caller, params, query }) => listOrgInvitations(caller, params.orgId, query));
export const POST = apiRoute(e.createInvitation, ({ caller, params, body, request }) => createInvitation(caller, params.orgId, body, publicBaseUrl(request.url)));
