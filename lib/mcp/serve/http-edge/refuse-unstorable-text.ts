import { readBodyText } from "@/lib/api/read-json-body";
import { readBodyTextOf } from "@/lib/net/node-fetch";
import { describeFlaw, findFlawedText, pathText, textFlaw } from "@/lib/api/validate-text";
import { jsonRpcErrorResponse } from "@/lib/mcp/serve/http-edge/responses";
import type { McpEndpoint } from "@/lib/mcp/surface/surface-types";

/**
 * The MCP endpoints' share of the edge check (lib/api/validate-text.ts): a server id or a
 * JSON-RPC message holding text the database cannot store (U+0000, an unpaired surrogate) is
 * answered 400 with a JSON-RPC error before the caller's view is resolved or a tool is called,
 * so it never reaches an upstream nor the audit insert that would fail after the call.
 */

/** JSON-RPC "Invalid Request" and "Invalid params". */
const INVALID_REQUEST = -32600;
const INVALID_PARAMS = -32602;

/** A 400 for a server id that cannot name anything we store, or null. */
export function refuseUnstorableServerId(endpoint: McpEndpoint): Response | null {
  if (endpoint.kind !== "server") return null;
  const flaw = textFlaw(endpoint.serverId);
  return flaw ? jsonRpcErrorResponse(400, INVALID_REQUEST, `The server id in the URL ${describeFlaw(flaw)}.`) : null;
}

/**
 * The JSON-RPC message (or batch) a POST carries, read from a clone so the SDK still gets the
 * body; undefined when there is none to judge here. What the SDK itself refuses (a body over
 * the limit, JSON that does not parse) is left to it: it answers those already.
 */
export async function readPostedMessage(request: Request, maxBodyBytes: number): Promise<unknown> {
  if (request.method.toUpperCase() !== "POST" || !request.body) return undefined;
  // Read already (lib/mcp/serve/node-adapter/serve-node.ts): no clone of the body's stream, no second read.
  const read = readBodyTextOf(request);
  const text = read === undefined ? await readBodyText(request.clone(), maxBodyBytes) : Buffer.byteLength(read) > maxBodyBytes ? null : read;
  if (text === null) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A 400 for a POSTed message with unstorable text, or null. */
export function refuseUnstorableMessage(message: unknown): Response | null {
  if (message === undefined) return null;
  const found = findFlawedText(message);
  if (!found) return null;
  const single = !Array.isArray(message) && message !== null && typeof message === "object" ? (message as Record<string, unknown>) : null;
  const id = single && (typeof single.id === "string" || typeof single.id === "number") ? single.id : null;
  const inParams = found.path[Array.isArray(message) ? 1 : 0] === "params";
  return Response.json(
    { jsonrpc: "2.0", id, error: { code: inParams ? INVALID_PARAMS : INVALID_REQUEST, message: explain(found.path, found.flaw, Array.isArray(message)) } },
    { status: 400, headers: { "cache-control": "no-store" } },
  );
}

/** `Invalid arguments: "q" contains …` for a tool argument; the field's path otherwise. */
function explain(path: (string | number)[], flaw: Parameters<typeof describeFlaw>[0], batch: boolean): string {
  const inMessage = batch ? path.slice(1) : path;
  if (inMessage[0] === "params" && inMessage[1] === "arguments" && inMessage.length > 2) {
    return `Invalid arguments: the argument "${pathText(inMessage.slice(2))}" ${describeFlaw(flaw)}.`;
  }
  return `The field "${pathText(path, "(message)")}" ${describeFlaw(flaw)}.`;
}
