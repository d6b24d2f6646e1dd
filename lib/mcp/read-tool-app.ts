import type { Caller } from "@/lib/auth/caller";
import { NotFoundError } from "@/lib/errors";
import { getServer } from "@/lib/servers/servers";
import { serverSurface } from "@/lib/mcp/surface/server-surface";

/** An MCP App's view as the console renders it (issue 25 point 3). */
export interface ToolApp {
  uri: string;
  html: string;
  /** The resource content's `_meta.ui` (csp, permissions, domain, prefersBorder); null: none. */
  ui: Record<string, unknown> | null;
}

/** Largest view the console renders (an app is one HTML page; its assets come from its CSP's domains). */
const MAX_APP_BYTES = 2 * 1024 * 1024;

/**
 * "Try a tool" for a tool with an app: reads its `ui://` resource exactly as the admin's own
 * MCP client would on /mcp/<serverId> (the same surface, so the same visibility and duplicate
 * rules, through the admin's upstream connection). A URI the admin's view does not publish
 * is "not found", as it is on the endpoint.
 */
export async function readToolApp(admin: Caller, serverId: string, uri: string): Promise<ToolApp> {
  await getServer(admin, serverId, ""); // managers only, as tryTool
  const surface = await serverSurface(admin, serverId);
  const target = uri.startsWith("ui://") ? surface?.resources()?.upstreamOf(uri) : null;
  if (!surface || !target) throw new NotFoundError("app");
  const read = await surface.upstreamResources.read(target.connector, target.uri);
  const content = read.contents.find((c) => c.uri === target.uri) ?? read.contents[0];
  const html = content && "text" in content && typeof content.text === "string" ? content.text : content && "blob" in content ? Buffer.from(String(content.blob), "base64").toString("utf8") : null;
  if (html === null || Buffer.byteLength(html) > MAX_APP_BYTES) throw new NotFoundError("app");
  const ui = (content._meta as { ui?: unknown } | undefined)?.ui;
  return { uri: target.uri, html, ui: ui && typeof ui === "object" ? (ui as Record<string, unknown>) : null };
}
