import { ApiError, problemFieldErrors, problemMessage } from "@/components/files/files-api";
import type { ConnectorHealth, ConnectorProbe } from "@/lib/connector-health/schemas";

/** The browser side of the connector health endpoints (same origin: the session cookie is the credential). */

async function send(path: string, init: RequestInit): Promise<ConnectorHealth> {
  let response: Response;
  try {
    response = await fetch(path, { credentials: "same-origin", ...init });
  } catch {
    throw new ApiError(0, problemMessage(0, ""));
  }
  if (!response.ok) {
    const text = await response.text();
    throw new ApiError(response.status, problemMessage(response.status, text, response.headers.get("retry-after")), problemFieldErrors(text));
  }
  return (await response.json()) as ConnectorHealth;
}

/** POST /api/v1/connectors/{id}/test. */
export function testConnector(connectorId: string): Promise<ConnectorHealth> {
  return send(`/api/v1/connectors/${encodeURIComponent(connectorId)}/test`, { method: "POST" });
}

/** PUT /api/v1/connectors/{id}/probe. */
export function saveProbe(connectorId: string, probe: ConnectorProbe): Promise<ConnectorHealth> {
  return send(`/api/v1/connectors/${encodeURIComponent(connectorId)}/probe`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(probe),
  });
}
