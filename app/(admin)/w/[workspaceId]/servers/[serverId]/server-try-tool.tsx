"use client";

import { TryToolPanel, type TryableTool } from "@/components/servers/try-tool-panel";
import { readToolAppAction, tryToolAction } from "@/app/(admin)/w/[workspaceId]/servers/actions";

export function ServerTryTool({ serverId, tools, nonce }: { serverId: string; tools: TryableTool[]; nonce: string }) {
  return <TryToolPanel tools={tools} run={(input) => tryToolAction(serverId, input)} readApp={(uri) => readToolAppAction(serverId, { uri })} nonce={nonce} />;
}
