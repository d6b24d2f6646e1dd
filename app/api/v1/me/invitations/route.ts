import { apiRoute } from "@/lib/api/handler";
import { invitationEndpoints as e } from "@/lib/invitations/endpoints";
import { listMyInvitations } from "@/lib/invitations/answer-invitation";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.listMyInvitations, ({ caller, query }) => listMyInvitations(caller, query));
