import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { requireWorkspace } from "@/app/(admin)/_lib/context";
import { getWorkspace } from "@/lib/workspaces/workspaces";
import { etagOf } from "@/lib/api/if-match";
import { DeleteWorkspaceButton, WorkspaceSettingsForm } from "@/app/(admin)/w/[workspaceId]/settings/workspace-settings-form";

export const metadata: Metadata = { title: "Workspace settings" };

export default async function WorkspaceSettingsPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { caller, org } = await requireWorkspace((await params).workspaceId, { admin: true });
  const workspace = await getWorkspace(caller, (await params).workspaceId);
  return (
    <div className="mx-auto grid max-w-2xl gap-6">
      <PageHeader title="Workspace settings" description={`${workspace.name}, in ${org.name}.`} />
      <Card aria-labelledby="ws-general">
        <CardHeader>
          <CardTitle id="ws-general">General</CardTitle>
        </CardHeader>
        <CardContent>
          <WorkspaceSettingsForm
            workspace={{
              id: workspace.id,
              name: workspace.name,
              slug: workspace.slug,
              knowledgeGraphEnabled: workspace.knowledgeGraphEnabled,
              toolWhitelistsEnabled: workspace.toolWhitelistsEnabled,
            }}
            version={etagOf(workspace)}
          />
        </CardContent>
      </Card>
      <Card aria-labelledby="ws-danger" className="border-red-300 dark:border-red-900">
        <CardHeader>
          <CardTitle id="ws-danger">Delete this workspace</CardTitle>
          <CardDescription>Deletes its members, MCP servers, skills, files and API keys. The organization&apos;s connectors and roles stay.</CardDescription>
        </CardHeader>
        <CardContent>
          <DeleteWorkspaceButton workspace={{ id: workspace.id, name: workspace.name, orgId: workspace.orgId }} version={etagOf(workspace)} />
        </CardContent>
      </Card>
    </div>
  );
}
