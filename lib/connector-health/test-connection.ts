import type { Caller } from "@/lib/auth/caller";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { setting } from "@/lib/config/settings";
import { asProtocolEra, asTransportKind, publicConfig } from "@/lib/connectors/connector-view";
import { discoverMcpTools } from "@/lib/connectors/discover-mcp-tools";
import { managedConnectorWhere } from "@/lib/connectors/managed-connector";
import { fetchWithLimits } from "@/lib/connectors/runtime/http-fetch";
import { openHeaders, redactSecrets } from "@/lib/connectors/secret-headers";
import { db } from "@/lib/db/client";
import { NotFoundError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { errorText } from "@/lib/log";
import { getConnectorHealth, storedProbe } from "@/lib/connector-health/connector-health";
import type { ConnectorHealth } from "@/lib/connector-health/schemas";
import { writeHealthCells } from "@/lib/usage/write-usage-rows";
import { assertCredentialMay } from "@/lib/permissions/guards";

/**
 * "Test connection": an http connector sends its probe request (default `GET /` below the
 * baseUrl) with its secret headers, and passes on any answer below 400; an mcp connector
 * connects and lists its tools. Either way the outcome is stored as the connector's latest
 * success or failure (with the test's own record), and the health is answered.
 */

const PROBE_MAX_BYTES = 64 * 1024;

interface Outcome {
  ok: boolean;
  message: string;
  latencyMs: number;
}

export async function testConnection(caller: Caller, connectorId: string): Promise<ConnectorHealth> {
  assertCredentialMay(caller, "connectors.manage");
  const connector = await db().connector.findFirst({
    where: managedConnectorWhere(caller, connectorId),
    select: { id: true, orgId: true, type: true, config: true, secretHeaders: true, protocolEra: true, transport: true },
  });
  if (!connector) throw new NotFoundError("connector");
  let headers: Record<string, string> = {};
  let outcome: Outcome;
  try {
    headers = openHeaders(connector.secretHeaders);
    outcome = connector.type === "http" ? await probeHttp(connector, headers) : await probeMcp(connector, headers);
  } catch (e) {
    outcome = { ok: false, message: `The test could not be run: ${errorText(e)}`, latencyMs: 0 };
  }
  const message = redactSecrets(outcome.message, headers).slice(0, 500);
  const at = Date.now();
  await writeHealthCells(
    [
      {
        orgId: connector.orgId,
        connectorId: connector.id,
        configVersion: 0, // unused: the message is scrubbed above, with the headers the test sent
        lastSuccessAt: outcome.ok ? at : null,
        lastLatencyMs: outcome.ok ? outcome.latencyMs : null,
        lastFailureAt: outcome.ok ? null : at,
        lastFailureMessage: outcome.ok ? null : message,
      },
    ],
    { ok: outcome.ok, message, at },
  );
  await recordAuditEvent(caller, { orgId: connector.orgId, action: "connector.test", targetType: "connector", targetId: connector.id, data: { ok: outcome.ok, latencyMs: outcome.latencyMs } });
  return getConnectorHealth(caller, connector.id);
}

type StoredConnector = { id: string; orgId: string; config: Prisma.JsonValue; protocolEra: string; transport: string };

async function probeHttp(connector: StoredConnector, headers: Record<string, string>): Promise<Outcome> {
  const baseUrl = publicConfig("http", connector.config).baseUrl;
  if (!baseUrl) return { ok: false, message: "The connector has no base URL.", latencyMs: 0 };
  const probe = await storedProbe(connector);
  const url = new URL(baseUrl.replace(/\/+$/, "") + probe.path);
  const limit = setting("HTTP_TOOL_TIMEOUT_MS");
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const request = `${probe.method} ${probe.path}`;
  try {
    const response = await fetchWithLimits({
      method: probe.method,
      url,
      body: null,
      secretHeaders: headers,
      headers: { accept: "*/*", "user-agent": "switchboard-connector/0.1" },
      maxBytes: PROBE_MAX_BYTES,
      signal: AbortSignal.timeout(limit),
    });
    const ok = response.status < 400;
    return { ok, message: `${request} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}.`, latencyMs: elapsed() };
  } catch (e) {
    const cause = (e as { cause?: unknown }).cause;
    const why = [errorText(e), cause ? errorText(cause) : ""].filter((t) => t && t !== "fetch failed").join(": ") || "network error";
    return { ok: false, message: `${request} to ${url.protocol}//${url.host} failed: ${why}.`, latencyMs: elapsed() };
  }
}

async function probeMcp(connector: StoredConnector, headers: Record<string, string>): Promise<Outcome> {
  const url = publicConfig("mcp", connector.config).url;
  if (!url) return { ok: false, message: "The connector has no upstream url.", latencyMs: 0 };
  const started = performance.now();
  try {
    const discovery = await discoverMcpTools({ url, headers, protocolEra: asProtocolEra(connector.protocolEra), transport: asTransportKind(connector.transport) });
    const version = discovery.protocolVersion ? ` (protocol ${discovery.protocolVersion})` : "";
    const count = discovery.tools.length;
    return { ok: true, message: `Connected${version} and listed ${count} ${count === 1 ? "tool" : "tools"}.`, latencyMs: Math.round(performance.now() - started) };
  } catch (e) {
    return { ok: false, message: `The upstream MCP server could not be reached: ${errorText(e)}`, latencyMs: Math.round(performance.now() - started) };
  }
}
