import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { connection } from "next/server";
import { AuthPage } from "@/components/shell/auth-page";
import { MIN_OWNER_PASSWORD_LENGTH, hasAnyUser, seedInitialAdminFromEnv } from "@/lib/auth/first-run";
import { getCurrentUser } from "@/lib/auth/current-user";
import { SetupForm } from "@/app/setup/setup-form";

export const metadata: Metadata = { title: "Set up" };

/** First run only: once any account exists this page is gone for good. */
export default async function SetupPage() {
  await connection();
  await seedInitialAdminFromEnv();
  // Somebody signed in has nothing to set up: their overview, not the sign-in page.
  if (await hasAnyUser()) redirect((await getCurrentUser()) ? "/" : "/signin");
  return (
    <AuthPage
      title="Create the owner account"
      description="This account owns the instance and a Default organization with a Default workspace."
    >
      <SetupForm minPasswordLength={MIN_OWNER_PASSWORD_LENGTH} />
    </AuthPage>
  );
}
