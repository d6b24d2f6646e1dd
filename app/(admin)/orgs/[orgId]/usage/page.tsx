import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { UsageDashboard } from "@/components/usage/usage-dashboard";
import { requireOrgAdmin } from "@/app/(admin)/_lib/context";
import { UsageQuery } from "@/lib/usage/schemas";
import { orgUsage } from "@/lib/usage/usage-report";

export const metadata: Metadata = { title: "Usage" };

type Props = { params: Promise<{ orgId: string }>; searchParams: Promise<{ range?: string | string[] }> };

export default async function OrgUsagePage({ params, searchParams }: Props) {
  const { org, caller } = await requireOrgAdmin((await params).orgId);
  const { range } = UsageQuery.catch({ range: "24h" }).parse({ range: (await searchParams).range });
  const report = await orgUsage(caller, org.id, range);
  return (
    <div className="mx-auto grid max-w-6xl gap-2">
      <PageHeader title="Usage" description={`Tool calls through every MCP server of ${org.name}: how many, how many failed, and how fast.`} />
      <UsageDashboard report={report} basePath={`/orgs/${org.id}/usage`} scopeLabel="organization" />
    </div>
  );
}
