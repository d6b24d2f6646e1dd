"use client";

import { ToolApprovals } from "@/components/connectors/tool-approvals";
import { approveToolAction } from "@/app/(admin)/orgs/[orgId]/connectors/actions";
import type { ConnectorToolView } from "@/lib/connectors/connector-view";

export function ApproveTools({ connectorId, tools }: { connectorId: string; tools: ConnectorToolView[] }) {
  return <ToolApprovals tools={tools} approve={(tool) => approveToolAction(connectorId, tool)} />;
}
