import { authorizationServer, oauthEnabled } from "@/lib/oauth/authorization-server";
import { registerRequestedResources } from "@/lib/oauth/mcp-access-token";
import { withNativeDefault } from "@/lib/oauth/native-registration";

/** SPIKE: better-auth's OAuth endpoints (lib/oauth/authorization-server.ts). */
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

async function handle(request: Request): Promise<Response> {
  if (!oauthEnabled()) return Response.json({ error: "not_found", error_description: "OAuth sign-in needs PUBLIC_URL." }, { status: 404 });
  await registerRequestedResources(request);
  return authorizationServer().handler(await withNativeDefault(request));
}

export { handle as GET, handle as POST };
