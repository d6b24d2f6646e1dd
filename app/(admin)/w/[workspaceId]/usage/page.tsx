import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { UsageDashboard } from "@/components/usage/usage-dashboard";
import { requireWorkspace } from "@/app/(admin)/_lib/context";
import { UsageQuery } from "@/lib/usage/schemas";
import { workspaceUsage } from "@/lib/usage/usage-report";

export const metadata: Metadata = { title: "Workspace usage" };

type Props = { params: Promise<{ workspaceId: string }>; searchParams: Promise<{ range?: string | string[] }> };

export default async function WorkspaceUsagePage({ params, searchParams }: Props) {
  const { workspace, caller } = await requireWorkspace((await params).workspaceId, { admin: true });
  const { range } = UsageQuery.catch({ range: "24h" }).parse({ range: (await searchParams).range });
  const report = await workspaceUsage(caller, workspace.id, range);
  return (
    <div className="mx-auto grid max-w-6xl gap-2">
      <PageHeader title="Workspace usage" description={`Tool calls through the MCP servers of ${workspace.name}: how many, how many failed, and how fast.`} />
      <UsageDashboard report={report} basePath={`/w/${workspace.id}/usage`} scopeLabel="workspace" />
    </div>
  );
}
