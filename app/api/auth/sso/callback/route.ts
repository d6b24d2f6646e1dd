import { ssoCallbackResponse } from "@/lib/sso/sso-callback-response";

/** Where an organization's identity provider sends the browser back (lib/sso/sso-callback-response.ts). */
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  return ssoCallbackResponse(request);
}
