"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { MIN_OWNER_PASSWORD_LENGTH, createInstanceOwner } from "@/lib/auth/first-run";
import { startSession } from "@/lib/auth/session-cookie";
import { logger } from "@/lib/log";

export interface SetupFormState {
  error?: string;
  fieldErrors?: Partial<Record<"email" | "name" | "password" | "confirmPassword", string>>;
  values?: { email: string; name: string };
}

const setupSchema = z
  .object({
    email: z.email("Enter a valid email address.").max(320),
    name: z.string().trim().min(1, "Enter your name.").max(100, "Use at most 100 characters."),
    password: z
      .string()
      .min(MIN_OWNER_PASSWORD_LENGTH, `Use at least ${MIN_OWNER_PASSWORD_LENGTH} characters.`)
      .max(1024, "Use at most 1024 characters."),
    confirmPassword: z.string(),
  })
  .refine((input) => input.password === input.confirmPassword, {
    path: ["confirmPassword"],
    message: "The passwords do not match.",
  });

/** The first problem of each field, worded for the person filling the form in. */
function firstFieldErrors(error: z.ZodError): SetupFormState["fieldErrors"] {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "");
    errors[field] ??= issue.message;
  }
  return errors;
}

/** Creates the instance owner, signs them in and opens the admin overview. */
export async function createOwnerAction(_previous: SetupFormState, formData: FormData): Promise<SetupFormState> {
  const raw = Object.fromEntries(["email", "name", "password", "confirmPassword"].map((key) => [key, String(formData.get(key) ?? "")]));
  const values = { email: raw.email.trim(), name: raw.name };
  const parsed = setupSchema.safeParse({ ...raw, email: values.email });
  if (!parsed.success) return { values, fieldErrors: firstFieldErrors(parsed.error) };

  let userId: string;
  try {
    const result = await createInstanceOwner(parsed.data);
    if (!result.ok) return { values, error: "This instance is already set up. Sign in with an existing account." };
    userId = result.userId;
  } catch (error) {
    logger.error({ err: String(error) }, "creating the instance owner failed");
    return { values, error: "Could not create the account. Check that the database is running and try again." };
  }
  await startSession({ id: userId });
  redirect("/");
}
