import { serveWellKnown, wellKnownPreflight } from "@/lib/oauth/serve-well-known";

/** OAuth metadata documents for MCP clients (lib/oauth/serve-well-known.ts). */
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

async function get(request: Request): Promise<Response> {
  return serveWellKnown(request);
}

async function options(): Promise<Response> {
  return wellKnownPreflight();
}

export { get as GET, options as OPTIONS };
