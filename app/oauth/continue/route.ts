import { continueAfterSignIn } from "@/lib/oauth/sign-in-bridge";

/** SPIKE: the authorization server's login page (lib/oauth/sign-in-bridge.ts). */
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  return continueAfterSignIn(request);
}
