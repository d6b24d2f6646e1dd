import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { requireWorkspace } from "@/app/(admin)/_lib/context";
import { listConnectors } from "@/lib/connectors/connectors";
import { SkillEditor } from "@/app/(admin)/w/[workspaceId]/skills/skill-form";

export const metadata: Metadata = { title: "New skill" };

export default async function NewSkillPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspace, org, caller } = await requireWorkspace((await params).workspaceId, { admin: true });
  const connectors = await listConnectors(caller, org.id, { limit: 200 });
  return (
    <div className="mx-auto grid max-w-4xl gap-6">
      <PageHeader title="New skill" description={`Guidance for MCP clients of ${workspace.name}.`} />
      <SkillEditor workspaceId={workspace.id} connectors={connectors.items.map((c) => ({ id: c.id, name: c.name }))} />
    </div>
  );
}
