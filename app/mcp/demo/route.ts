import { serveMcp } from "@/lib/mcp/serve/http-edge/serve-mcp";

/** The public demo server: built-in tools, no account, limited per client address (lib/mcp). */
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

async function handle(request: Request): Promise<Response> {
  return serveMcp(request, { kind: "demo" });
}

export { handle as GET, handle as POST, handle as DELETE, handle as OPTIONS };
