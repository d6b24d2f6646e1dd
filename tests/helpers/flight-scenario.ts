import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport, type ClientCapabilities } from "@modelcontextprotocol/client";
import { expect } from "vitest";
import { api } from "@/tests/helpers/api";
import { createTenant, type Tenant } from "@/tests/helpers/factories";
import { upstreamPool } from "@/lib/connectors/runtime/default-pool";
import { type FlightUpstream, startV1FlightUpstream, startV2FlightUpstream } from "@/tests/helpers/flight-upstreams";
import { type RouteServer, startRouteServer } from "@/tests/helpers/route-server";

/**
 * A tenant whose admin put an upstream behind an `mcp` connector (with a secret header) on a
 * server, and MCP clients of both SDKs connecting to it through /mcp/<serverId> with the
 * capabilities a test chooses.
 */

export const UPSTREAM_SECRET = "Bearer sk-upstream-5d1c9e07a3b4";
const INFO = { name: "flight-test", version: "1.0.0" };

export interface FlightScenario {
  t: Tenant;
  serverId: string;
  connectorId: string;
  url: string;
}

export async function flightScenario(origin: string, upstreamUrl: string, t?: Tenant): Promise<FlightScenario> {
  const tenant = t ?? (await createTenant());
  const connector = await api(tenant.admin.token).post(`/api/v1/orgs/${tenant.org.id}/connectors`, {
    name: "Flight",
    type: "mcp",
    config: { url: upstreamUrl, headers: { Authorization: UPSTREAM_SECRET } },
  });
  expect(connector.status, JSON.stringify(connector.body)).toBe(201);
  const server = await api(tenant.admin.token).post(`/api/v1/workspaces/${tenant.workspace.id}/servers`, { name: "Flight", connectorIds: [connector.body.id] });
  expect(server.status).toBe(201);
  return { t: tenant, serverId: server.body.id, connectorId: connector.body.id, url: `${origin}/mcp/${server.body.id}` };
}

/** `fetch`: what the client's transport sends with (a test routing some POSTs elsewhere). */
const auth = (token: string, fetch?: typeof globalThis.fetch) => ({ requestInit: { headers: { authorization: `Bearer ${token}` } }, ...(fetch ? { fetch } : {}) });

/** A 2025-era client (v1 SDK, initialize) declaring `capabilities`. */
export async function v1Client(url: string, token: string, capabilities: Record<string, unknown> = {}, fetch?: typeof globalThis.fetch): Promise<V1Client> {
  const client = new V1Client(INFO, { capabilities });
  await client.connect(new V1Transport(new URL(url), auth(token, fetch)));
  return client;
}

/** A 2026-07-28 client (v2 SDK, pinned) declaring `capabilities`. */
export async function v2Client(url: string, token: string, capabilities: ClientCapabilities = {}): Promise<V2Client> {
  const client = new V2Client(INFO, { capabilities, versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(new V2Transport(new URL(url), auth(token)));
  return client;
}

/** A 2025-era client of the v2 SDK (initialize), for the v2 client on the 2025 wire. */
export async function v2LegacyClient(url: string, token: string, capabilities: ClientCapabilities = {}, fetch?: typeof globalThis.fetch): Promise<V2Client> {
  const client = new V2Client(INFO, { capabilities, versionNegotiation: { mode: "legacy" } });
  await client.connect(new V2Transport(new URL(url), auth(token, fetch)));
  return client;
}

/** The app on a real port and one upstream of each era (v1 SDK: 2025-era, v2 SDK: 2026-07-28). */
export interface FlightSite {
  app: RouteServer;
  v1: FlightUpstream;
  v2: FlightUpstream;
}

export async function startFlightSite(): Promise<FlightSite> {
  const [app, v1, v2] = await Promise.all([startRouteServer(), startV1FlightUpstream(), startV2FlightUpstream()]);
  return { app, v1, v2 };
}

/** Closes the pooled upstream connections first, so the upstreams stop without a live client. */
export async function stopFlightSite(site: Partial<FlightSite>): Promise<void> {
  await upstreamPool().closeAll();
  await Promise.all([site.app?.close(), site.v1?.stop(), site.v2?.stop()]);
}
