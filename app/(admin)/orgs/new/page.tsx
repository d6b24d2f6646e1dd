import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardContent } from "@/components/ui/card";
import { loadViewer } from "@/app/(admin)/_lib/context";
import { NewOrgForm } from "@/app/(admin)/orgs/new/new-org-form";

export const metadata: Metadata = { title: "New organization" };

export default async function NewOrgPage() {
  const { user } = await loadViewer();
  // Only the instance owner creates organizations (lib/orgs/orgs.ts createOrg says the same).
  if (!user.isInstanceOwner) notFound();
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
