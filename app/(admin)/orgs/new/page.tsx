import type { Metadata } from "next";
import Link from "next/link";
import { ShieldAlert } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardContent } from "@/components/ui/card";
import { loadViewer } from "@/app/(admin)/_lib/context";
import { NewOrgForm } from "@/app/(admin)/orgs/new/new-org-form";

export const metadata: Metadata = { title: "New organization" };

export default async function NewOrgPage() {
  const { user } = await loadViewer();
  // Only the instance owner creates organizations (lib/orgs/orgs.ts createOrg says the same); a
  // page someone may not open says so rather than passing for a missing one.
  if (!user.isInstanceOwner) return <OnlyInstanceOwner />;
  return (
    <div className="mx-auto max-w-xl">
      <PageHeader title="New organization" description="An organization holds connectors, MCP roles and workspaces. You become its owner." />
      <Card>
        <CardContent className="pt-6">
          <NewOrgForm />
        </CardContent>
      </Card>
    </div>
  );
}

function OnlyInstanceOwner() {
  return (
    <div className="mx-auto grid max-w-3xl gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">You don&apos;t have access to this page</h1>
      <EmptyState icon={ShieldAlert} title="Only the instance owner creates organizations">
        Ask an owner or admin of an organization to invite you to it; the organizations you are in are on the{" "}
        <Link href="/" className="underline">
          overview
        </Link>
        .
      </EmptyState>
    </div>
  );
}
