import { z } from "zod";
import { Name, Slug } from "@/lib/schemas/common";

export const CreateOrgBody = z.object({ name: Name, slug: Slug }).meta({ id: "CreateOrg" });
export type CreateOrgBody = z.infer<typeof CreateOrgBody>;

export const UpdateOrgBody = z.object({ name: Name.optional(), slug: Slug.optional() }).meta({ id: "UpdateOrg" });
export type UpdateOrgBody = z.infer<typeof UpdateOrgBody>;

export const Org = z
  .object({ id: z.string(), name: z.string(), slug: z.string(), createdAt: z.iso.datetime(), updatedAt: z.iso.datetime() })
  .meta({ id: "Org" });
