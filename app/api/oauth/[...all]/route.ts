import { authorizationServer } from "@/lib/oauth/authorization-server";

/** SPIKE: better-auth's OAuth endpoints (lib/oauth/authorization-server.ts). */
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

async function handle(request: Request): Promise<Response> {
  return authorizationServer().handler(request);
}

export { handle as GET, handle as POST };
