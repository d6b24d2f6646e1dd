import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { loadViewer } from "@/app/(admin)/_lib/context";
import { PasswordForm } from "@/app/(admin)/me/account/password-form";
import { hasPassword } from "@/lib/auth/change-password";

export const metadata: Metadata = { title: "Account" };

/** The signed-in person's own account: who they are signed in as, and their password. */
export default async function AccountPage() {
  const { user } = await loadViewer();
  const withPassword = await hasPassword(user.id);
  return (
    <div className="mx-auto grid max-w-5xl gap-6">
      <PageHeader title="Account" description={`Signed in as ${user.email}.`} />
      <Card>
        <CardHeader>
          <CardTitle>Password</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-4">
        {withPassword ? (
          <>
            <p className="text-sm text-zinc-600 dark:text-zinc-400">Changing it signs you out everywhere else: every other browser signed in as you has to sign in again.</p>
            <PasswordForm />
          </>
        ) : (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">You sign in with your organization&apos;s single sign-on; there is no password here to change.</p>
        )}
        </CardContent>
      </Card>
    </div>
  );
}
