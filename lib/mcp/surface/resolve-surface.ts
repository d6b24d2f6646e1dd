import type { Caller } from "@/lib/auth/caller";
import type { VersionsSeen } from "@/lib/config-version/read-current-version";
import { demoSurface } from "@/lib/mcp/surface/demo-surface";
import { serverSurface } from "@/lib/mcp/surface/server-surface";
import { sharedSurface } from "@/lib/mcp/surface/shared-surface";
import type { McpEndpoint, McpSurface } from "@/lib/mcp/surface/surface-types";

/**
 * What `endpoint` offers `caller` now, or null when it offers nothing: the server does not
 * exist for this caller (404, same as a missing one), or /mcp was reached with a credential
 * that has no workspace. Used per request and by live sessions when they reconcile; `seen`:
 * the versions this request's authentication already read (lib/config-version/read-current-version.ts).
 */
export async function resolveSurface(endpoint: McpEndpoint, caller: Caller | null, seen?: VersionsSeen): Promise<McpSurface | null> {
  if (endpoint.kind === "demo") return demoSurface();
  if (!caller) return null;
  return endpoint.kind === "server" ? serverSurface(caller, endpoint.serverId, seen) : sharedSurface(caller, seen);
}
