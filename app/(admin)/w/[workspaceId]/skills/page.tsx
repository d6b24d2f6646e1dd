import type { Metadata } from "next";
import Link from "next/link";
import { BookOpen, Plus } from "lucide-react";
import { PageHeader } from "@/components/ui/page-header";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Pagination } from "@/components/ui/pagination";
import { Table, TBody, TD, TH, THead } from "@/components/ui/table";
import { cursorParam, requireWorkspace } from "@/app/(admin)/_lib/context";
import { listSkills } from "@/lib/skills/skills";
import { listConnectors } from "@/lib/connectors/connectors";
import { AppliedSwitch } from "@/app/(admin)/w/[workspaceId]/skills/skill-controls";

export const metadata: Metadata = { title: "Skills" };

type Props = { params: Promise<{ workspaceId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function SkillsPage({ params, searchParams }: Props) {
  const { workspace, org, caller } = await requireWorkspace((await params).workspaceId, { admin: true });
  const cursor = cursorParam((await searchParams).cursor);
  const [page, connectors] = await Promise.all([listSkills(caller, workspace.id, { cursor, limit: 50 }), listConnectors(caller, org.id, { limit: 200 })]);
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
      {page.items.length === 0 && !cursor ? (
        <EmptyState icon={BookOpen} title="No skills yet" action={newButton}>
          Write down how to do recurring tasks with your tools (e.g. &quot;To refund an order, first look up the customer…&quot;).
        </EmptyState>
      ) : (
        <div>
          <Table>
            <caption className="sr-only">Skills of {workspace.name}</caption>
            <THead>
              <tr>
                <TH>Name</TH>
                <TH>Scope</TH>
                <TH>Status</TH>
                <TH className="text-right">Applied</TH>
              </tr>
            </THead>
            <TBody>
              {page.items.map((s) => (
                <tr key={s.id}>
                  <TD>
                    <Link className="font-medium underline-offset-2 hover:underline" href={`/w/${workspace.id}/skills/${s.id}`}>
                      {s.name}
                    </Link>
                  </TD>
                  <TD>{s.connectorId ? <Badge tone="info">Connector: {connectorName.get(s.connectorId) ?? "unknown"}</Badge> : <Badge>Workspace</Badge>}</TD>
                  <TD>{s.applied ? <Badge tone="success">Applied</Badge> : <Badge>Not applied</Badge>}</TD>
                  <TD className="text-right">
                    <AppliedSwitch skill={{ id: s.id, name: s.name, applied: s.applied }} />
                  </TD>
                </tr>
              ))}
            </TBody>
          </Table>
          <Pagination basePath={`/w/${workspace.id}/skills`} nextCursor={page.nextCursor} isFirstPage={!cursor} />
        </div>
      )}
    </div>
  );
}
