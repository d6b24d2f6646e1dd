import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import { db } from "@/lib/db/client";
import { openHeaders } from "@/lib/connectors/secret-headers";
import { asProtocolEra, asTransportKind } from "@/lib/connectors/connector-view";
import type { McpUpstream } from "@/lib/connectors/open-upstream";
import { processState } from "@/lib/process-state";

/**
 * A connector's secret headers, loaded at call time: snapshots never hold secrets. The query
 * carries the snapshot's organization, so a connector id from elsewhere finds nothing.
 */
export interface ConnectorSecrets {
  headers: Record<string, string>;
}

/**
 * Decrypted headers by connector and configuration version: changing a connector's secrets
 * bumps its org's version, so an entry is never used past the snapshot it was loaded for.
 * Kept in this process's memory only, like the connections built from them.
 */
const globalForSecrets = processState<{ switchboardConnectorSecrets?: LRUCache<string, ConnectorSecrets> }>();
const opened = (globalForSecrets.switchboardConnectorSecrets ??= new LRUCache({ max: 5_000 }));

/**
 * The decrypted headers of a connector of `orgId`, as of the snapshot at `configVersion`;
 * throws when the connector is gone or undecryptable.
 */
export async function loadConnectorSecrets(orgId: string, connectorId: string, configVersion: number): Promise<ConnectorSecrets> {
  const key = `${orgId}|${connectorId}|${configVersion}`;
  const known = opened.get(key);
  if (known) return known;
  const row = await db().connector.findFirst({ where: { id: connectorId, orgId }, select: { secretHeaders: true } });
  if (!row) throw new Error("the connector no longer exists");
  const secrets = { headers: openHeaders(row.secretHeaders) };
  opened.set(key, secrets);
  return secrets;
}

/** What an outbound connection to an `mcp` connector's upstream is opened with, besides its url. */
export type UpstreamSettings = Required<Omit<McpUpstream, "url">>;

/** The decrypted headers, protocol era and transport of an `mcp` connector of `orgId`. */
export async function loadUpstreamSettings(orgId: string, connectorId: string): Promise<UpstreamSettings> {
  const row = await db().connector.findFirst({ where: { id: connectorId, orgId }, select: { secretHeaders: true, protocolEra: true, transport: true, eraFallback: true } });
  if (!row) throw new Error("the connector no longer exists");
  return { headers: openHeaders(row.secretHeaders), protocolEra: asProtocolEra(row.protocolEra), transport: asTransportKind(row.transport), fellBack: row.eraFallback !== null };
}

/** A digest of what an outbound connection was built from; a change means a new connection. */
export function connectionFingerprint(url: string, settings: UpstreamSettings): string {
  const { headers } = settings;
  const sorted = Object.keys(headers)
    .sort()
    .map((name) => [name.toLowerCase(), headers[name]]);
  return createHash("sha256").update(JSON.stringify([url, sorted, settings.protocolEra, settings.transport, settings.fellBack])).digest("hex");
}
