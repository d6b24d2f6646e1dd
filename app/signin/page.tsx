import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { connection } from "next/server";
import { AuthPage } from "@/components/shell/auth-page";
import { Alert } from "@/components/ui/alert";
import { safeCallbackPath } from "@/lib/auth/callback-url";
import { hasAnyUser, seedInitialAdminFromEnv } from "@/lib/auth/first-run";
import { messageForSignInError } from "@/lib/auth/sign-in-messages";
import { logger } from "@/lib/log";
import { SignInForm } from "@/app/signin/sign-in-form";

export const metadata: Metadata = { title: "Sign in" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** True when nobody can sign in yet, so the visitor belongs on /setup. Null: database unreachable. */
async function instanceNeedsSetup(): Promise<boolean | null> {
  try {
    await seedInitialAdminFromEnv();
    return !(await hasAnyUser());
  } catch (error) {
    logger.error({ err: String(error) }, "cannot check whether the instance is set up");
    return null;
  }
}

export default async function SignInPage({ searchParams }: { searchParams: SearchParams }) {
  await connection();
  const params = await searchParams;
  const needsSetup = await instanceNeedsSetup();
  if (needsSetup) redirect("/setup");
  return (
    <AuthPage title="Sign in" description="Use the email and password of your Switchboard account.">
      {needsSetup === null && (
        <Alert className="mb-4">The database is not reachable right now; signing in may fail.</Alert>
      )}
      <SignInForm
        callbackUrl={safeCallbackPath(firstValue(params.callbackUrl))}
        initialError={messageForSignInError(firstValue(params.error))}
      />
    </AuthPage>
  );
}
