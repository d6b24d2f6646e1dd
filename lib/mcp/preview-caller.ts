import type { Caller } from "@/lib/auth/caller";
import { NotFoundError } from "@/lib/errors";
import { getServer } from "@/lib/servers/servers";
import { getRole } from "@/lib/roles/roles";
import { whitelistKey } from "@/lib/mcp/visibility/load-access";
import { visibleConnectors } from "@/lib/mcp/visibility/filter-view";
import { findServerHead, loadServerSnapshot } from "@/lib/mcp/visibility/load-snapshot";
import { resolveCallerView } from "@/lib/mcp/visibility/resolve-view";
import { surfaceOfView } from "@/lib/mcp/surface/server-surface";
import type { WireTool } from "@/lib/mcp/surface/surface-types";
import type { ResourceListing } from "@/lib/resources/resource-catalog";

/**
 * "Preview as a caller" for admins: what /mcp/<serverId> would answer a given workspace
 * member, or any member holding a given MCP role, computed by the endpoint's own functions
 * (resolveCallerView / visibleConnectors → surfaceOfView). Nothing is called or changed.
 */

export type PreviewSubject = { kind: "member"; userId: string } | { kind: "role"; roleId: string };

export type CallerPreview =
  | { exists: false }
  | {
      exists: true;
      tools: (WireTool & { connectorId: string; connectorName: string; toolName: string })[];
      instructions: string;
      resources: ResourceListing[];
      /** Assigned connectors this caller gets nothing from. */
      hiddenConnectors: { id: string; name: string }[];
    };

/**
 * The preview, or `{ exists: false }` when the server does not exist for that caller (the
 * endpoint's 404). The server must be one the admin manages and the role one of its org.
 */
export async function previewCaller(admin: Caller, serverId: string, subject: PreviewSubject): Promise<CallerPreview> {
  const server = await getServer(admin, serverId, "");
  const head = await findServerHead(admin, server.id);
  if (!head) throw new NotFoundError("MCP server");
  let view;
  let subjectCaller: Caller = admin;
  if (subject.kind === "member") {
    subjectCaller = { kind: "user", userId: subject.userId, apiKey: null };
    view = await resolveCallerView(subjectCaller, server.id);
  } else {
    // A role of the server's own organization (in the query: an admin of several orgs
    // cannot preview one org's role on another org's server).
    const role = await getRole(admin, subject.roleId, server.orgId);
    const allowed = new Set(role.tools.map((t) => whitelistKey(t.connectorId, t.tool)));
    const prompts = new Set(role.prompts.map((p) => whitelistKey(p.connectorId, p.prompt)));
    view = visibleConnectors(await loadServerSnapshot(head), { kind: "whitelist", allowed, prompts });
  }
  if (!view) return { exists: false };
  const surface = surfaceOfView(subjectCaller, view);
  const byExposed = view.toolsByExposedName;
  const names = new Map(view.snapshot.connectors.map((c) => [c.id, c.name]));
  const visible = new Set(view.connectors.map((c) => c.id));
  return {
    exists: true,
    tools: surface.tools.list.map((wire) => {
      const tool = byExposed.get(wire.name)!;
      return { ...wire, connectorId: tool.connectorId, connectorName: names.get(tool.connectorId) ?? "", toolName: tool.name };
    }),
    instructions: surface.instructions(),
    resources: surface.resources()?.list() ?? [],
    hiddenConnectors: view.snapshot.connectors.filter((c) => !visible.has(c.id)).map((c) => ({ id: c.id, name: c.name })),
  };
}
