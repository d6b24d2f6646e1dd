import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from "@modelcontextprotocol/client";

/**
 * Real MCP clients for endpoint tests: the v1 SDK (a 2025-era peer, 2025-11-25 through
 * initialize) and the v2 SDK pinned to 2026-07-28 (per-request _meta, server/discover).
 */

const INFO = { name: "switchboard-test", version: "1.0.0" };

function authHeaders(token: string | null, extra: Record<string, string> = {}): Record<string, string> {
  return { ...(token ? { authorization: `Bearer ${token}` } : {}), ...extra };
}

/** JSON-RPC messages the server sent in answer to POSTs, as they were on the wire. */
export interface WireLog {
  messages: any[];
}

/** A fetch that records every JSON-RPC message of POST responses (JSON or SSE) into `log`. */
export function recordingFetch(log: WireLog): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if ((init?.method ?? "GET").toUpperCase() === "POST" && response.body) {
      const copy = response.clone();
      void copy.text().then(
        (text) => log.messages.push(...[parseBody(text, copy.headers.get("content-type"), true)].flat().filter(Boolean)),
        () => undefined,
      );
    }
    return response;
  };
}

export interface ConnectedV1 {
  client: V1Client;
  transport: V1Transport;
  close(): Promise<void>;
}

/** A 2025-era connection (initialize). */
export async function connectV1(url: string, token: string | null, headers: Record<string, string> = {}, wire?: WireLog): Promise<ConnectedV1> {
  const client = new V1Client(INFO, { capabilities: {} });
  const transport = new V1Transport(new URL(url), {
    requestInit: { headers: authHeaders(token, headers) },
    ...(wire ? { fetch: recordingFetch(wire) } : {}),
  });
  await client.connect(transport);
  return { client, transport, close: () => client.close().catch(() => undefined) };
}

export interface ConnectedV2 {
  client: V2Client;
  close(): Promise<void>;
}

/** A 2026-07-28 connection (server/discover, per-request _meta). */
export async function connectV2(url: string, token: string | null, headers: Record<string, string> = {}, wire?: WireLog): Promise<ConnectedV2> {
  const client = new V2Client(INFO, { capabilities: {}, versionNegotiation: { mode: { pin: "2026-07-28" } } });
  const transport = new V2Transport(new URL(url), {
    requestInit: { headers: authHeaders(token, headers) },
    ...(wire ? { fetch: recordingFetch(wire) } : {}),
  });
  await client.connect(transport);
  return { client, close: () => client.close().catch(() => undefined) };
}

/** The JSON-RPC error a rejected client call carries: `{ code, message, data }`. */
export async function rpcError(promise: Promise<unknown>): Promise<{ code: number; message: string; data?: unknown }> {
  try {
    await promise;
  } catch (e) {
    const err = e as { code?: number; message: string; data?: unknown };
    return { code: err.code ?? NaN, message: err.message, data: err.data };
  }
  throw new Error("expected the call to fail");
}

/** POSTs one raw JSON-RPC message (2025-era, no session) and returns status, headers and parsed body. */
export async function postRaw(url: string, message: unknown, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: typeof message === "string" ? message : JSON.stringify(message),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: parseBody(text, res.headers.get("content-type")) };
}

/** A JSON body, or the last `data:` message of an SSE body (every message with `all`). */
export function parseBody(text: string, contentType: string | null, all = false): any {
  if (contentType?.startsWith("text/event-stream")) {
    const data = text.split("\n").filter((l) => l.startsWith("data: ")).map((l) => JSON.parse(l.slice(6).trim() || "null")).filter(Boolean);
    return all ? data : (data.at(-1) ?? null);
  }
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return text;
  }
}
