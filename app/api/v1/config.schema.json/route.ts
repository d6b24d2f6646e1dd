import { configJsonSchema } from "@/lib/org-config/json-schema";

export const runtime = "nodejs";
export const dynamic = "force-static";

/** The configuration document's JSON Schema, public like the OpenAPI document: editors fetch it to complete and check files. */
export function GET(): Response {
  return Response.json(configJsonSchema(), { headers: { "content-type": "application/schema+json" } });
}
