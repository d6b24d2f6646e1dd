import { decideConsent } from "@/lib/oauth/consent";

/** SPIKE: the consent page's decision (lib/oauth/consent.ts). */
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  return decideConsent(request);
}
