import type { Metadata } from "next";
import { type ConnectorParams, loadConnector } from "@/app/(admin)/orgs/[orgId]/connectors/[connectorId]/load";
import { InstructionsForm } from "@/app/(admin)/orgs/[orgId]/connectors/[connectorId]/instructions/instructions-form";
import { etagOf } from "@/lib/api/if-match";

export const metadata: Metadata = { title: "Connector instructions" };

export default async function ConnectorInstructionsPage({ params }: { params: ConnectorParams }) {
  const { orgId, connectorId } = await params;
  const { connector } = await loadConnector(orgId, connectorId);
  return <InstructionsForm connectorId={connector.id} instructions={connector.instructions ?? ""} version={etagOf(connector)} />;
}
