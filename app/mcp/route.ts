import { serveMcp } from "@/lib/mcp/serve/http-edge/serve-mcp";

/** The shared endpoint: every tool the caller's user API key may use in its workspace (lib/mcp). */
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

async function handle(request: Request): Promise<Response> {
  return serveMcp(request, { kind: "shared" });
}

export { handle as GET, handle as POST, handle as DELETE, handle as OPTIONS };
