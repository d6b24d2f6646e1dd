import { clientMetadataDocumentResponse } from "@/lib/connectors/upstream-auth/browser-responses";

/** Switchboard's Client ID Metadata Document as an OAuth client of upstreams (https PUBLIC_URL only). */
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export function GET(): Response {
  return clientMetadataDocumentResponse();
}
