import { connectionCallbackResponse } from "@/lib/connectors/upstream-auth/browser-responses";

/** Where an upstream's authorization server sends the browser back (lib/connectors/upstream-auth/complete.ts). */
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export function GET(request: Request): Promise<Response> {
  return connectionCallbackResponse(request);
}
