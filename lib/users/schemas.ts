import { z } from "zod";
import { Id, Name } from "@/lib/schemas/common";

/** Emails are stored trimmed and lowercased, as sign-in looks them up. */
export const Email = z.string().trim().toLowerCase().max(320).check(z.email("Must be an email address."));

/** Longer passwords are refused by sign-in too; shorter ones are too easy to guess. */
export const Password = z.string().min(12, "Use at least 12 characters.").max(1024);

export const CreateUserBody = z
  .object({
    email: Email,
    name: Name.optional(),
    password: Password.optional(),
    /** The organization to add the user to (callers who manage several must name one). */
    orgId: Id.optional(),
    /** Workspaces of that organization to join too (an existing account: named in its invitation). */
    workspaceIds: z.array(Id).max(100).optional(),
  })
  .meta({ id: "CreateUser" });
export type CreateUserBody = z.infer<typeof CreateUserBody>;

export const User = z.object({ id: z.string(), email: z.string(), name: z.string().nullable() }).meta({ id: "User" });
