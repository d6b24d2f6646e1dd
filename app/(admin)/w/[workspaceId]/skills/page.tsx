import type { Metadata } from "next";
import Link from "next/link";
import { BookOpen, Plus } from "lucide-react";
import { PageHeader } from "@/components/ui/page-header";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { type DataColumn, DataTable, type DataRow } from "@/components/lists/data-table";
import { requireWorkspace } from "@/app/(admin)/_lib/context";
import { readListParams } from "@/app/(admin)/_lib/list-params";
import { listSkills } from "@/lib/skills/skills";
import { SkillListQuery } from "@/lib/skills/schemas";
import { listConnectors } from "@/lib/connectors/connectors";
import { AppliedSwitch } from "@/app/(admin)/w/[workspaceId]/skills/skill-controls";

export const metadata: Metadata = { title: "Skills" };

type Props = { params: Promise<{ workspaceId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const COLUMNS: DataColumn[] = [
  { id: "name", header: "Name", sortable: true },
  { id: "scope", header: "Scope", wide: true },
  { id: "status", header: "Status", wide: true },
  { id: "applied", header: "Applied", className: "text-right" },
];

export default async function SkillsPage({ params, searchParams }: Props) {
  const { workspace, org, caller } = await requireWorkspace((await params).workspaceId, { admin: true });
  const query = readListParams(SkillListQuery, await searchParams);
  const [page, connectors] = await Promise.all([listSkills(caller, workspace.id, query), listConnectors(caller, org.id, { limit: 200 })]);
  const connectorName = new Map(connectors.items.map((c) => [c.id, c.name]));
  const newButton = (
    <Button asChild>
      <Link href={`/w/${workspace.id}/skills/new`}>
        <Plus aria-hidden />
        New skill
      </Link>
    </Button>
  );
  return (
    <div className="mx-auto grid max-w-5xl gap-6">
      <PageHeader
        title="Skills"
        description="Markdown guidance appended to the instructions of this workspace's MCP servers while applied. A skill scoped to a connector reaches only callers who can use that connector."
        actions={newButton}
      />
      {page.items.length === 0 && !query.cursor && !query.q ? (
        <EmptyState icon={BookOpen} title="No skills yet" action={newButton}>
          Write down how to do recurring tasks with your tools (e.g. &quot;To refund an order, first look up the customer…&quot;).
        </EmptyState>
      ) : (
        <DataTable
          caption={`Skills of ${workspace.name}`}
          columns={COLUMNS}
          rows={page.items.map((s): DataRow => ({
            id: s.id,
            label: s.name,
            cells: {
              name: (
                <Link className="font-medium underline-offset-2 hover:underline" href={`/w/${workspace.id}/skills/${s.id}`}>
                  {s.name}
                </Link>
              ),
              scope: s.connectorId ? <Badge tone="info">Connector: {connectorName.get(s.connectorId) ?? "unknown"}</Badge> : <Badge>Workspace</Badge>,
              status: s.applied ? <Badge tone="success">Applied</Badge> : <Badge>Not applied</Badge>,
              applied: <AppliedSwitch skill={{ id: s.id, name: s.name, applied: s.applied }} />,
            },
          }))}
          nextCursor={page.nextCursor}
          searchLabel="Search skills"
          bulk={{ verb: "Delete", noun: "skill", endpoint: "/api/v1/skills/bulk-delete" }}
        />
      )}
    </div>
  );
}
