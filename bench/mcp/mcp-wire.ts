/**
 * The raw HTTP requests of the MCP benchmark, in both eras, as clients put them on the wire:
 * 2025-11-25 stateless POSTs (no session) and 2026-07-28 POSTs whose revision and client
 * capabilities ride in each request's `_meta`, mirrored in the Mcp-Method / Mcp-Name headers.
 */

export type Era = "2025-11-25" | "2026-07-28";

export interface HttpCall {
  url: string;
  method: "GET" | "POST" | "DELETE";
  headers: Record<string, string>;
  body?: string;
}

const CLIENT_INFO = { name: "switchboard-bench", version: "1.0.0" };

/** One JSON-RPC request to an MCP endpoint; `token` adds the bearer credential. */
export function mcpCall(url: string, era: Era, method: string, params: Record<string, unknown>, token?: string): HttpCall {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": era,
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };
  let sent = params;
  if (era === "2026-07-28") {
    const _meta = {
      "io.modelcontextprotocol/protocolVersion": era,
      "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    sent = { ...params, _meta };
    headers["mcp-method"] = method;
    const name = typeof params.uri === "string" ? params.uri : typeof params.name === "string" ? params.name : null;
    if (name) headers["mcp-name"] = name;
  }
  return { url, method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: sent }) };
}

export function initializeParams(era: Era): Record<string, unknown> {
  return { protocolVersion: era, capabilities: {}, clientInfo: CLIENT_INFO };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON-RPC answers are checked field by field
export type Json = any;

/** Sends `call` once; the answer's status, headers and body (the JSON-RPC message when it is MCP). */
export async function send(call: HttpCall): Promise<{ status: number; headers: Headers; text: string; message: Json }> {
  const response = await fetch(call.url, { method: call.method, headers: call.headers, body: call.body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, message: parseMessage(text, response.headers.get("content-type")) };
}

/** A JSON body, or the last `data:` event of a text/event-stream body; null when neither. */
function parseMessage(text: string, contentType: string | null): Json {
  try {
    if (contentType?.startsWith("text/event-stream")) {
      const events = text.split(/\r?\n/).filter((line) => line.startsWith("data:"));
      return events.length ? JSON.parse(events[events.length - 1].slice(5)) : null;
    }
    return JSON.parse(text);
  } catch {
    return null;
  }
}

const SETUP_ATTEMPTS = 5;

/**
 * `send` for set-up and checks, which must not fail a run because a loaded machine made the
 * app answer 503 once (its database connect timeout is 1 s): up to 5 tries, 1 s apart.
 */
export async function sendPatiently(call: HttpCall): Promise<Awaited<ReturnType<typeof send>>> {
  for (let attempt = 1; ; attempt++) {
    const answer = await send(call);
    if (answer.status !== 503 || attempt >= SETUP_ATTEMPTS) return answer;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** The result of an MCP answer, or an Error naming what came instead. */
export async function resultOf(call: HttpCall, what: string): Promise<Json> {
  const { status, text, message } = await sendPatiently(call);
  if (status !== 200 || !message?.result) throw new Error(`${what}: HTTP ${status} ${text.slice(0, 300)}`);
  return message.result;
}
