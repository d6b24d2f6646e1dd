import { issuerOrigin } from "@/lib/oauth/authorization-server";

/**
 * The connect link an MCP answer gives a caller with no usable connection (issue 24 point 4):
 * it opens the product, which signs the person in if needed — as the person the key or OAuth
 * token belongs to, anyone else is refused — and goes straight on to the upstream
 * (app/api/connections/start/route.ts). On PUBLIC_URL, else the configured address.
 */
export const START_PATH = "/api/connections/start";

export function connectLink(connectorId: string, userId: string): string {
  const query = new URLSearchParams({ connector: connectorId, person: userId });
  return `${issuerOrigin()}${START_PATH}?${query}`;
}
