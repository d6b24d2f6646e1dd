"use client";

import { TryToolPanel, type TryableTool } from "@/components/servers/try-tool-panel";
import { tryToolAction } from "@/app/(admin)/w/[workspaceId]/servers/actions";

export function ServerTryTool({ serverId, tools }: { serverId: string; tools: TryableTool[] }) {
  return <TryToolPanel tools={tools} run={(input) => tryToolAction(serverId, input)} />;
}
