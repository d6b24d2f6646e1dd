import { createHash } from "node:crypto";
import { db } from "@/lib/db/client";
import { openHeaders } from "@/lib/connectors/secret-headers";

/**
 * A connector's secret headers, loaded at call time: snapshots never hold secrets. The query
 * carries the snapshot's organization, so a connector id from elsewhere finds nothing.
 */
export interface ConnectorSecrets {
  headers: Record<string, string>;
}

/** The decrypted headers of a connector of `orgId`; throws when the connector is gone or undecryptable. */
export async function loadConnectorSecrets(orgId: string, connectorId: string): Promise<ConnectorSecrets> {
  const row = await db().connector.findFirst({ where: { id: connectorId, orgId }, select: { secretHeaders: true } });
  if (!row) throw new Error("the connector no longer exists");
  return { headers: openHeaders(row.secretHeaders) };
}

/** A digest of what an outbound connection was built from; a change means a new connection. */
export function connectionFingerprint(url: string, headers: Record<string, string>): string {
  const sorted = Object.keys(headers)
    .sort()
    .map((name) => [name.toLowerCase(), headers[name]]);
  return createHash("sha256").update(JSON.stringify([url, sorted])).digest("hex");
}
