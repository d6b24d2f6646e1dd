import { connectLinkResponse } from "@/lib/connectors/upstream-auth/browser-responses";

/** The connect link of an MCP answer (lib/connectors/upstream-auth/connect-link.ts). */
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export function GET(request: Request): Promise<Response> {
  return connectLinkResponse(request);
}
