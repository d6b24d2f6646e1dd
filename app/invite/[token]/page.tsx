import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { AuthPage } from "@/components/shell/auth-page";
import { Alert } from "@/components/ui/alert";
import { getCurrentUser } from "@/lib/auth/current-user";
import { type InvitationLinkView, readInvitationLink } from "@/lib/invitations/answer-invitation-link";
import { AcceptInvitationButton, JoinWithNewAccountForm } from "@/app/invite/[token]/invite-answer";

export const metadata: Metadata = { title: "Invitation" };

const linkClass = "font-medium text-zinc-900 underline underline-offset-2 dark:text-zinc-100";

/** Why a link no longer works, in the words its person needs ("expired and reused links refused with a clear page"). */
const REFUSED: Record<Exclude<InvitationLinkView["state"], "pending">, { title: string; text: (v: InvitationLinkView) => string }> = {
  expired: { title: "This invitation has expired", text: (v) => `It was valid until ${v.expiresAt.toUTCString()}. Ask ${v.invitedBy ?? "an administrator of the organization"} to invite you again.` },
  used: { title: "This invitation was already used", text: () => "Each invitation link works once. If you accepted it, sign in to use the organization; otherwise ask for a new invitation." },
  revoked: { title: "This invitation was withdrawn", text: (v) => `${v.orgName} withdrew it. Ask ${v.invitedBy ?? "an administrator of the organization"} if you think this is a mistake.` },
};

function invitedTo(v: InvitationLinkView): string {
  const where = v.workspaceNames.length ? ` and its workspace${v.workspaceNames.length === 1 ? "" : "s"} ${v.workspaceNames.join(", ")}` : "";
  return `${v.invitedBy ?? "An administrator"} invited ${v.email} to join ${v.orgName}${where} as ${v.role === "admin" || v.role === "owner" ? "an" : "a"} ${v.role}.`;
}

/** An invitation link (`/invite/<secret>`), open without a session: accept, or make the account and join. */
export default async function InvitationLinkPage({ params }: { params: Promise<{ token: string }> }) {
  await connection();
  const { token } = await params;
  const [view, user] = await Promise.all([readInvitationLink(token), getCurrentUser()]);
  if (!view) {
    return (
      <AuthPage title="This invitation link is not valid" description="Check that you opened the whole link from your invitation, or ask for a new one.">
        <Link href="/" className={linkClass}>Go to Switchboard</Link>
      </AuthPage>
    );
  }
  if (view.state !== "pending") {
    const refused = REFUSED[view.state];
    return (
      <AuthPage title={refused.title} description={refused.text(view)}>
        <Link href={user ? "/" : "/signin"} className={linkClass}>{user ? "Go to your overview" : "Sign in"}</Link>
      </AuthPage>
    );
  }
  return (
    <AuthPage title={`Join ${view.orgName}`} description={invitedTo(view)}>
      {user && user.email.toLowerCase() === view.email ? (
        <AcceptInvitationButton token={token} orgName={view.orgName} />
      ) : user ? (
        <Alert>
          This invitation is for {view.email}, and you are signed in as {user.email}. Sign out, then open this link again and sign in as {view.email}.
        </Alert>
      ) : view.accountExists ? (
        <p className="text-sm">
          <Link href={`/signin?callbackUrl=${encodeURIComponent(`/invite/${token}`)}`} className={linkClass}>
            Sign in as {view.email}
          </Link>{" "}
          to accept.
        </p>
      ) : (
        <JoinWithNewAccountForm token={token} email={view.email} />
      )}
    </AuthPage>
  );
}
