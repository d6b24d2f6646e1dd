import { serveOauth } from "@/lib/oauth/serve-oauth";

/** better-auth's OAuth endpoints (lib/oauth/serve-oauth.ts). */
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export { serveOauth as GET, serveOauth as POST };
