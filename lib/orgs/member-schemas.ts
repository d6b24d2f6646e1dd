import { z } from "zod";
import { listQuery } from "@/lib/api/list-query";
import { Id, OrgRole } from "@/lib/schemas/common";

export const AddOrgMemberBody = z.object({ userId: Id, role: OrgRole }).meta({ id: "AddOrgMember" });
export type AddOrgMemberBody = z.infer<typeof AddOrgMemberBody>;

export const UpdateOrgMemberBody = z.object({ role: OrgRole }).meta({ id: "UpdateOrgMember" });
export type UpdateOrgMemberBody = z.infer<typeof UpdateOrgMemberBody>;

export const OrgMember = z
  .object({
    /** The membership's own id (also the list cursor); the user is `userId`. */
    id: z.string(),
    orgId: z.string(),
    userId: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    role: OrgRole,
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "OrgMember" });

/** List parameters of an organization's members. */
export const OrgMemberListQuery = listQuery(["email", "role", "createdAt"], "member names and emails");
export type OrgMemberListQuery = z.infer<typeof OrgMemberListQuery>;
