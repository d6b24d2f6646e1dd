import { apiRoute } from "@/lib/api/handler";
import { invitationEndpoints as e } from "@/lib/invitations/endpoints";
import { revokeInvitation } from "@/lib/invitations/manage-invitations";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const DELETE = apiRoute(e.revokeInvitation, ({ caller, params }) => revokeInvitation(caller, params.invitationId));
