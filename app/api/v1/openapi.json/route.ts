import { buildOpenApiDocument } from "@/lib/openapi/document";

export const runtime = "nodejs";
export const dynamic = "force-static";

export function GET(): Response {
  return Response.json(buildOpenApiDocument());
}
