import type { Metadata } from "next";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConnectorHealthDetails } from "@/components/connectors/connector-health-details";
import { TestConnectionPanel } from "@/components/connectors/test-connection-panel";
import { type ConnectorParams, loadConnector } from "@/app/(admin)/orgs/[orgId]/connectors/[connectorId]/load";
import { getConnectorHealth } from "@/lib/connector-health/connector-health";

export const metadata: Metadata = { title: "Connector health" };

export default async function ConnectorHealthPage({ params }: { params: ConnectorParams }) {
  const { orgId, connectorId } = await params;
  const { connector, caller } = await loadConnector(orgId, connectorId);
  const health = await getConnectorHealth(caller, connector.id);
  return (
    <div className="grid gap-6">
      <Card aria-labelledby="health-title">
        <CardHeader>
          <CardTitle id="health-title">Health</CardTitle>
          <CardDescription>From this connector&apos;s tool calls (written every few seconds) and from the connection tests. An upstream that answers, even with an error, counts as reachable.</CardDescription>
        </CardHeader>
        <CardContent>
          <ConnectorHealthDetails health={health} />
        </CardContent>
      </Card>
      <Card aria-labelledby="test-title">
        <CardHeader>
          <CardTitle id="test-title">Test connection</CardTitle>
        </CardHeader>
        <CardContent>
          <TestConnectionPanel connectorId={connector.id} type={connector.type} probe={health.probe} />
        </CardContent>
      </Card>
    </div>
  );
}
