import type { Caller } from "@/lib/auth/caller";
import type { ToolCallResult } from "@/lib/connectors/runtime/types";
import { UpstreamRpcError } from "@/lib/connectors/runtime/upstream-rpc-error";
import { NotFoundError } from "@/lib/errors";
import { getServer } from "@/lib/servers/servers";
import { serverSurface } from "@/lib/mcp/surface/server-surface";

export interface TriedTool {
  result: ToolCallResult;
  durationMs: number;
}

/**
 * "Try a tool" for admins: calls a tool of a server they manage exactly as an MCP client's
 * tools/call would (the same surface, argument validation, connector runtime and audit),
 * as the admin. Unknown tool or server → not found. An upstream JSON-RPC error, which an MCP
 * client receives as that error, is shown here as the isError result it has always been.
 */
export async function tryTool(admin: Caller, serverId: string, toolName: string, args: Record<string, unknown>): Promise<TriedTool> {
  await getServer(admin, serverId, ""); // managers only: a member's own view is not for trying tools on others' behalf
  const surface = await serverSurface(admin, serverId);
  const started = performance.now();
  const call = surface?.tools.call(toolName, args);
  if (!call) throw new NotFoundError("tool");
  const result = await call.catch((e: unknown) => {
    if (!(e instanceof UpstreamRpcError)) throw e;
    return { content: [{ type: "text" as const, text: `The upstream MCP server answered with an error (${e.code}): ${e.message}` }], isError: true };
  });
  return { result, durationMs: Math.round(performance.now() - started) };
}
