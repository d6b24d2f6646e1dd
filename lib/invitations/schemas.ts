import { z } from "zod";
import { Id, OrgRole } from "@/lib/schemas/common";
import { Email } from "@/lib/users/schemas";

export const CreateInvitationBody = z
  .object({
    email: Email,
    role: OrgRole.default("member"),
    workspaceIds: z.array(Id).max(100).default([]).meta({ description: "Workspaces of the organization the person joins on accepting." }),
  })
  .meta({ id: "CreateInvitation" });
export type CreateInvitationBody = z.infer<typeof CreateInvitationBody>;

export const InvitationStatus = z.enum(["pending", "accepted", "declined", "revoked", "expired"]);

export const Invitation = z
  .object({
    id: z.string(),
    orgId: z.string(),
    orgName: z.string(),
    email: z.string().meta({ description: "Whose account may answer: the person signed in with this email." }),
    role: OrgRole,
    workspaceIds: z.array(z.string()),
    status: InvitationStatus.meta({ description: "`expired`: still unanswered after `expiresAt`." }),
    invitedBy: z.object({ email: z.string(), name: z.string().nullable() }).nullable(),
    expiresAt: z.iso.datetime(),
    respondedAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "Invitation" });
