"use client";

import { ToolCuration } from "@/components/servers/tool-curation";
import { setToolOverridesAction } from "@/app/(admin)/w/[workspaceId]/servers/actions";
import type { CuratedRow } from "@/lib/servers/tool-curation-model";

export function ServerToolCuration({ serverId, rows, version }: { serverId: string; rows: CuratedRow[]; version: string }) {
  return <ToolCuration serverId={serverId} rows={rows} version={version} save={(input, v) => setToolOverridesAction(serverId, input, v)} />;
}
