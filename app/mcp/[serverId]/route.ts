import { serveMcp } from "@/lib/mcp/serve/http-edge/serve-mcp";

/** One MCP server: the tools and resources its caller may use (lib/mcp). */
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ serverId: string }> };

async function handle(request: Request, { params }: Context): Promise<Response> {
  const { serverId } = await params;
  return serveMcp(request, { kind: "server", serverId });
}

export { handle as GET, handle as POST, handle as DELETE, handle as OPTIONS };
