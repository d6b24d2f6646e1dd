import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { NextSteps } from "@/components/shell/next-steps";
import { OrgCard } from "@/components/shell/org-card";
import { getCurrentUser } from "@/lib/auth/current-user";
import { listOrgsForOverview } from "@/lib/shell/overview";
import { hasUsedAKey } from "@/lib/servers/my-servers";

export const metadata: Metadata = { title: "Overview" };

function NoOrganizations({ canCreate }: { canCreate: boolean }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>You are not in any organization yet</CardTitle>
        <CardDescription>
          {canCreate ? (
            <>
              <Link href="/orgs/new" className="underline">
                Create an organization
              </Link>{" "}
              to start: you become its owner.
            </>
          ) : (
            <>
              Ask an owner or admin of an organization to add you as a member. The instance owner (or the instance credential,{" "}
              <code className="font-mono">POST /api/v1/orgs</code>) creates organizations.
            </>
          )}
        </CardDescription>
      </CardHeader>
    </Card>
  );
}

export default async function OverviewPage() {
  const user = await getCurrentUser();
  if (!user) redirect("/signin");
  const [orgs, keyUsed] = await Promise.all([listOrgsForOverview(user.id), hasUsedAKey({ kind: "user", userId: user.id, apiKey: null })]);
  return (
    <div className="mx-auto grid max-w-4xl gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Overview</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          Signed in as {user.name ? `${user.name} (${user.email})` : user.email}
          {user.isInstanceOwner ? " · instance owner" : ""}
        </p>
      </div>
      {orgs.length === 0 ? (
        <NoOrganizations canCreate={user.isInstanceOwner} />
      ) : (
        <>
          <NextSteps orgs={orgs} keyUsed={keyUsed} />
          <section aria-label="Organizations" className="grid gap-4">
            {orgs.map((org) => (
              <OrgCard key={org.id} org={org} />
            ))}
          </section>
        </>
      )}
    </div>
  );
}
