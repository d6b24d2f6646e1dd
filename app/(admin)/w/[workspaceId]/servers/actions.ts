"use server";

import { z } from "zod";
import { requestBaseUrl } from "@/app/(admin)/_lib/context";
import { runAction, runVersionedAction } from "@/app/(admin)/_lib/run-action";
import { Id } from "@/lib/schemas/common";
import { createServer, deleteServer, setServerConnectors, updateServer } from "@/lib/servers/servers";
import { CreateServerBody, SetServerConnectorsBody, UpdateServerBody } from "@/lib/servers/schemas";
import { tryTool } from "@/lib/mcp/try-tool";
import { readToolApp } from "@/lib/mcp/read-tool-app";
import { setToolOverrides } from "@/lib/servers/tool-overrides";
import { SetToolOverridesBody } from "@/lib/servers/tool-override-schemas";

export async function createServerAction(workspaceId: string, input: unknown) {
  const baseUrl = await requestBaseUrl();
  return runAction((caller) => createServer(caller, Id.parse(workspaceId), CreateServerBody.parse(input), baseUrl));
}

export async function updateServerAction(serverId: string, input: unknown, version?: string) {
  const baseUrl = await requestBaseUrl();
  return runVersionedAction(version, (caller, ifMatch) => updateServer(caller, Id.parse(serverId), UpdateServerBody.parse(input), baseUrl, ifMatch));
}

export async function setServerConnectorsAction(serverId: string, input: unknown, version?: string) {
  const baseUrl = await requestBaseUrl();
  return runVersionedAction(version, (caller, ifMatch) =>
    setServerConnectors(caller, Id.parse(serverId), SetServerConnectorsBody.parse(input).connectorIds, baseUrl, ifMatch),
  );
}

export async function deleteServerAction(serverId: string, version?: string) {
  const baseUrl = await requestBaseUrl();
  return runVersionedAction(
    version,
    async (caller, ifMatch) => {
      await deleteServer(caller, Id.parse(serverId), { ifMatch, baseUrl });
      return null;
    },
    { revalidate: false },
  );
}

const TryInput = z.object({ tool: z.string().min(1).max(200), args: z.record(z.string(), z.unknown()) });

/** Calls a tool of the server as the signed-in admin, through the MCP endpoint's own path. */
export async function tryToolAction(serverId: string, input: unknown) {
  return runAction(
    async (caller) => {
      const { tool, args } = TryInput.parse(input);
      return tryTool(caller, Id.parse(serverId), tool, args);
    },
    { revalidate: false },
  );
}

const AppInput = z.object({ uri: z.string().min(1).max(2048) });

/** The `ui://` view of a tool of the server, read as the signed-in admin's MCP client would read it. */
export async function readToolAppAction(serverId: string, input: unknown) {
  return runAction((caller) => readToolApp(caller, Id.parse(serverId), AppInput.parse(input).uri), { revalidate: false });
}

/** Replaces the server's tool overrides (the console's inline curation of its tools). */
export async function setToolOverridesAction(serverId: string, input: unknown, version?: string) {
  return runVersionedAction(version, (caller, ifMatch) => setToolOverrides(caller, Id.parse(serverId), SetToolOverridesBody.parse(input), ifMatch));
}
