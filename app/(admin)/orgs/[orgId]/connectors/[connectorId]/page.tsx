import type { Metadata } from "next";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { type ConnectorParams, loadConnector } from "@/app/(admin)/orgs/[orgId]/connectors/[connectorId]/load";
import { ConnectorSettingsForm, DeleteConnectorButton } from "@/app/(admin)/orgs/[orgId]/connectors/[connectorId]/settings-form";
import { ReplaceHeadersButton } from "@/app/(admin)/orgs/[orgId]/connectors/[connectorId]/replace-headers";
import { etagOf } from "@/lib/api/if-match";
import { ConnectorAuthForm } from "@/app/(admin)/orgs/[orgId]/connectors/[connectorId]/auth-form";
import { ConnectionsCard } from "@/app/(admin)/orgs/[orgId]/connectors/[connectorId]/connections-card";

export const metadata: Metadata = { title: "Connector settings" };

export default async function ConnectorSettingsPage({ params }: { params: ConnectorParams }) {
  const { orgId, connectorId } = await params;
  const { connector, caller } = await loadConnector(orgId, connectorId);
  const names = connector.hasSecretHeaders;
  return (
    <div className="grid gap-6">
      <Card aria-labelledby="connector-general">
        <CardHeader>
          <CardTitle id="connector-general">General</CardTitle>
        </CardHeader>
        <CardContent>
          <ConnectorSettingsForm
            connector={{
              id: connector.id,
              type: connector.type,
              name: connector.name,
              url: connector.config.baseUrl ?? connector.config.url ?? "",
              protocolEra: connector.config.protocolEra,
              transport: connector.config.transport,
            }}
            version={etagOf(connector)}
          />
        </CardContent>
      </Card>
      <Card aria-labelledby="connector-auth">
        <CardHeader>
          <CardTitle id="connector-auth">Authentication</CardTitle>
          <CardDescription>How requests to the upstream authenticate. Client secrets are write-only: stored encrypted and never shown again.</CardDescription>
        </CardHeader>
        <CardContent>
          <ConnectorAuthForm connector={{ id: connector.id, type: connector.type, auth: connector.auth }} version={etagOf(connector)} />
        </CardContent>
      </Card>
      <ConnectionsCard caller={caller} connector={{ id: connector.id, orgId, name: connector.name, auth: connector.auth, toolCount: connector.tools.length }} />
      <Card aria-labelledby="connector-headers">
        <CardHeader>
          <CardTitle id="connector-headers">Secret headers</CardTitle>
          <CardDescription>Write-only: stored encrypted and never shown again. Change or remove one and the others stay as they are.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {names.length === 0 ? (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">No secret headers are set.</p>
          ) : (
            <ul className="flex flex-wrap gap-2" aria-label="Headers that are set">
              {names.map((name) => (
                <li key={name}>
                  <Badge tone="success">
                    <span className="font-mono">{name}</span>: set
                  </Badge>
                </li>
              ))}
            </ul>
          )}
          <ReplaceHeadersButton connectorId={connector.id} currentNames={names} version={etagOf(connector)} />
        </CardContent>
      </Card>
      <Card aria-labelledby="connector-danger" className="border-red-300 dark:border-red-900">
        <CardHeader>
          <CardTitle id="connector-danger">Delete this connector</CardTitle>
          <CardDescription>Its tools, stored resources and knowledge graph go with it, and it leaves every MCP server it is assigned to.</CardDescription>
        </CardHeader>
        <CardContent>
          <DeleteConnectorButton connector={{ id: connector.id, name: connector.name, orgId }} version={etagOf(connector)} />
        </CardContent>
      </Card>
    </div>
  );
}
