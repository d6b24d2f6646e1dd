import { z } from "zod";
import { Id, Name, OrgRole } from "@/lib/schemas/common";
import { Email, Password } from "@/lib/users/schemas";

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

export const CreatedInvitation = Invitation.extend({
  acceptUrl: z.url().meta({ description: "The link to accept, shown only in this answer (its secret is stored hashed). It works once, until `expiresAt`." }),
  emailSent: z.boolean().meta({ description: "Whether the link was emailed to `email` (SMTP configured and the server took it); otherwise pass the link on yourself." }),
}).meta({ id: "CreatedInvitation" });

/** What a person with no account yet enters on the invitation link's page. */
export const JoinWithNewAccountBody = z.object({ name: Name, password: Password });
export type JoinWithNewAccountBody = z.infer<typeof JoinWithNewAccountBody>;
