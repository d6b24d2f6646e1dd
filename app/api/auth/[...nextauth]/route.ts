import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { checkAuthRequest } from "@/lib/auth/check-auth-request";
import { getAuthOptions } from "@/lib/auth/next-auth-options";

type RouteContext = { params: Promise<{ nextauth: string[] }> };

// Options are resolved per request (not at import) so `next build` touches no secret file.
async function handler(request: NextRequest, context: RouteContext): Promise<Response> {
  const checked = await checkAuthRequest(request, await context.params);
  if (checked instanceof Response) return checked;
  return NextAuth(checked as never, context as never, getAuthOptions());
}

export { handler as GET, handler as POST };
