import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ChevronLeft } from "lucide-react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EndpointDetails } from "@/components/servers/endpoint-card";
import { orNotFound, requestBaseUrl, requireWorkspace } from "@/app/(admin)/_lib/context";
import { getServer } from "@/lib/servers/servers";
import { etagOf } from "@/lib/api/if-match";
import { listConnectors } from "@/lib/connectors/connectors";
import { orgConnectorHealth } from "@/lib/connector-health/connector-health";
import { AssignedConnectorHealth } from "@/components/connectors/assigned-connector-health";
import { previewCaller } from "@/lib/mcp/preview-caller";
import { appResourceUri } from "@/lib/connectors/mcp-fields";
import { headers } from "next/headers";
import { NONCE_HEADER } from "@/lib/net/security-headers";
import { ServerConnectorsEditor } from "@/app/(admin)/w/[workspaceId]/servers/[serverId]/connectors-editor";
import { DeleteServerButton, ServerSettingsForm } from "@/app/(admin)/w/[workspaceId]/servers/[serverId]/server-settings-form";
import { ServerTryTool } from "@/app/(admin)/w/[workspaceId]/servers/[serverId]/server-try-tool";
import { oauthEnabled } from "@/lib/oauth/authorization-server";
import { getToolOverrides } from "@/lib/servers/tool-overrides";
import { curationRows } from "@/lib/servers/curation-rows";
import { ServerToolCuration } from "@/app/(admin)/w/[workspaceId]/servers/[serverId]/server-tool-curation";

export const metadata: Metadata = { title: "MCP server" };

type Props = { params: Promise<{ workspaceId: string; serverId: string }> };

export default async function ServerPage({ params }: Props) {
  const { workspaceId, serverId } = await params;
  const { workspace, org, caller, userId } = await requireWorkspace(workspaceId, { admin: true });
  const server = await orNotFound(getServer(caller, serverId, await requestBaseUrl()));
  if (server.workspaceId !== workspace.id) notFound();
  const [connectors, asAdmin, overrides] = await Promise.all([
    listConnectors(caller, org.id, { limit: 200 }),
    // The admin's own view: every assigned tool, exactly as the endpoint lists them.
    previewCaller(caller, server.id, { kind: "member", userId }),
    getToolOverrides(caller, server.id),
  ]);
  const health = await orgConnectorHealth(org.id, server.connectorIds);
  const tools = asAdmin.exists ? asAdmin.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema, connectorName: t.connectorName, appUri: appResourceUri(t._meta) })) : [];
  return (
    <div className="mx-auto grid max-w-5xl gap-6">
      <div className="grid gap-2">
        <Link href={`/w/${workspace.id}/servers`} className="inline-flex w-fit items-center gap-1 text-sm text-zinc-600 underline-offset-2 hover:underline dark:text-zinc-400">
          <ChevronLeft aria-hidden className="size-4" />
          MCP servers
        </Link>
        <h1 className="text-2xl font-semibold tracking-tight">{server.name}</h1>
      </div>
      <Card aria-labelledby="endpoint-title">
        <CardHeader>
          <CardTitle id="endpoint-title">Endpoint</CardTitle>
          <CardDescription>
            MCP clients connect here with an API key of this workspace (<Link className="underline" href={`/w/${workspace.id}/api-keys`}>create one</Link>, optionally pinned to this server).{" "}
            <Link className="underline" href={`/w/${workspace.id}/preview?server=${server.id}`}>Preview what a member gets</Link>.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <EndpointDetails url={server.url} serverName={server.name} oauth={oauthEnabled()} />
        </CardContent>
      </Card>
      <Card aria-labelledby="assigned-title">
        <CardHeader>
          <CardTitle id="assigned-title">Connectors</CardTitle>
          <CardDescription>Their tools are published on this server in this order; instructions follow the same order.</CardDescription>
        </CardHeader>
        <CardContent>
          <ServerConnectorsEditor
            serverId={server.id}
            orgId={org.id}
            assignedIds={server.connectorIds}
            version={etagOf(server)}
            connectors={connectors.items.map((c) => ({ id: c.id, name: c.name, slug: c.slug, type: c.type, toolCount: c.tools.length }))}
          />
          <AssignedConnectorHealth
            orgId={org.id}
            connectors={server.connectorIds.flatMap((id) => {
              const c = connectors.items.find((item) => item.id === id);
              const h = health.get(id);
              return c && h ? [{ id, name: c.name, health: h }] : [];
            })}
          />
        </CardContent>
      </Card>
      <Card aria-labelledby="curation-title">
        <CardHeader>
          <CardTitle id="curation-title">Tools as the model sees them</CardTitle>
          <CardDescription>Rename, describe, annotate or hide each tool on this server only. Roles keep naming the connector&apos;s tool; re-discovery keeps these.</CardDescription>
        </CardHeader>
        <CardContent>
          <ServerToolCuration serverId={server.id} rows={curationRows(server.connectorIds, connectors.items, overrides.items)} version={etagOf(overrides)} />
        </CardContent>
      </Card>
      <Card aria-labelledby="server-settings-title">
        <CardHeader>
          <CardTitle id="server-settings-title">Name and instructions</CardTitle>
          <CardDescription>The server&apos;s own instructions open the instructions every MCP client receives at initialize.</CardDescription>
        </CardHeader>
        <CardContent>
          <ServerSettingsForm server={{ id: server.id, name: server.name, instructions: server.instructions ?? "" }} version={etagOf(server)} />
        </CardContent>
      </Card>
      <Card aria-labelledby="try-title">
        <CardHeader>
          <CardTitle id="try-title">Try a tool</CardTitle>
          <CardDescription>Calls the tool for real, as you, exactly as an MCP client&apos;s tools/call would (and is audited like one).</CardDescription>
        </CardHeader>
        <CardContent>
          <ServerTryTool serverId={server.id} tools={tools} nonce={(await headers()).get(NONCE_HEADER) ?? ""} />
        </CardContent>
      </Card>
      <Card aria-labelledby="server-danger" className="border-red-300 dark:border-red-900">
        <CardHeader>
          <CardTitle id="server-danger">Delete this server</CardTitle>
          <CardDescription>Its endpoint stops answering and API keys pinned to it are deleted with it.</CardDescription>
        </CardHeader>
        <CardContent>
          <DeleteServerButton server={{ id: server.id, name: server.name, workspaceId: workspace.id }} version={etagOf(server)} />
        </CardContent>
      </Card>
    </div>
  );
}
