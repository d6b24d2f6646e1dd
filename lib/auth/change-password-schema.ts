import { z } from "zod";
import { Password } from "@/lib/users/schemas";

/** The password-change form's body (lib/auth/change-password.ts); a file of its own so the form can import it. */
export const ChangePasswordBody = z.object({
  currentPassword: z.string().min(1, "Enter your current password.").max(1024),
  newPassword: Password,
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;
