import NextAuth from "next-auth";
import { getAuthOptions } from "@/lib/auth/next-auth-options";

type RouteContext = { params: Promise<{ nextauth: string[] }> };

// Options are resolved per request (not at import) so `next build` touches no secret file.
function handler(request: Request, context: RouteContext): Promise<Response> {
  return NextAuth(request as never, context as never, getAuthOptions());
}

export { handler as GET, handler as POST };
