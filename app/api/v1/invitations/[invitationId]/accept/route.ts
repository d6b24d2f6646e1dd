import { apiRoute } from "@/lib/api/handler";
import { invitationEndpoints as e } from "@/lib/invitations/endpoints";
import { acceptInvitation } from "@/lib/invitations/answer-invitation";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = apiRoute(e.acceptInvitation, ({ caller, params }) => acceptInvitation(caller, params.invitationId));
