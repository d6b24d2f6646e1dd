import fc from "fast-check";
import { hostileString, type JsonSchema, RAW_BODIES, type SchemaContext, segmentFor, valueFor } from "@/tests/e2e/support/fuzz-values";

/**
 * Requests of the edge fuzz suite: one arbitrary per operation of the served OpenAPI document
 * (path ids of the caller's tenant, another tenant's, unknown and hostile; query and body from
 * the declared schemas) and one for the MCP endpoints (the JSON-RPC shapes of both protocol
 * eras). Each request is what goes on the wire: the raw path, headers and body.
 */

export interface FuzzRequest {
  method: string;
  /** Raw path and query, exactly as sent. */
  path: string;
  headers: Record<string, string>;
  body?: string | FormData;
}

export interface FuzzTargets {
  /** Candidate values of each path parameter name (own, other tenant's, unknown ids). */
  ids: Record<string, readonly string[]>;
  /** Authorization header values: user keys of both tenants, the instance key, garbage. */
  credentials: readonly (string | null)[];
  /** MCP endpoint paths: per-server (own and other tenant's), shared, demo. */
  mcpPaths: readonly string[];
  schema: SchemaContext;
}

interface Operation {
  method: string;
  path: string;
  parameters?: Array<{ in: string; name: string; schema: JsonSchema }>;
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

export function operationsOf(document: { paths: Record<string, Record<string, Omit<Operation, "method" | "path">>> }): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ ...op, method: method.toUpperCase(), path })));
}

const authHeader = (credential: string | null): Record<string, string> => (credential ? { authorization: `Bearer ${credential}` } : {});

/** Any request to `op`: its path ids, query and body generated, the credential picked. */
export function apiRequest(op: Operation, t: FuzzTargets): fc.Arbitrary<FuzzRequest> {
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === "path");
  const segments = fc.tuple(...pathParams.map((p) => segmentFor(t.ids[p.name] ?? ["x"])));
  const query = fc.tuple(...params.filter((p) => p.in === "query").map((p) => fc.option(valueFor(p.schema, t.schema).map((v) => [p.name, typeof v === "string" ? v : JSON.stringify(v)] as const), { nil: undefined })));
  const content = op.requestBody?.content ?? {};
  const body: fc.Arbitrary<Pick<FuzzRequest, "body" | "headers">> = content["multipart/form-data"]
    ? uploadBody()
    : content["application/json"]
      ? jsonBody(content["application/json"].schema, t.schema)
      : fc.constant({ headers: {} });
  // Now and then a method the operation does not have, TRACE among them (Next.js cannot serve it).
  const method = fc.oneof({ weight: 19, arbitrary: fc.constant(op.method) }, { weight: 1, arbitrary: fc.constantFrom("TRACE", "TRACK", "OPTIONS", "HEAD") });
  return fc.record({ segments, query, body, credential: fc.constantFrom(...t.credentials), method }).map(({ segments: values, query: pairs, body: b, credential, method: m }) => {
    let path = `/api/v1${op.path}`;
    pathParams.forEach((p, i) => (path = path.replace(`{${p.name}}`, values[i])));
    const search = new URLSearchParams(pairs.filter((pair): pair is readonly [string, string] => pair !== undefined) as [string, string][]).toString();
    const headers = { ...authHeader(credential), ...(m === op.method ? b.headers : {}) };
    return { method: m, path: search ? `${path}?${search}` : path, headers, body: m === op.method ? b.body : undefined };
  });
}

function jsonBody(schema: JsonSchema, ctx: SchemaContext): fc.Arbitrary<Pick<FuzzRequest, "body" | "headers">> {
  const json = { "content-type": "application/json" };
  return fc.oneof(
    { weight: 8, arbitrary: valueFor(schema, ctx).map((v) => ({ headers: json, body: JSON.stringify(v) ?? "null" })) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_BODIES).map((body) => ({ headers: json, body })) },
    { weight: 1, arbitrary: fc.constantFrom("text/plain", "application/x-www-form-urlencoded", "multipart/form-data").map((type) => ({ headers: { "content-type": type }, body: "a=1" })) },
  );
}

function uploadBody(): fc.Arbitrary<Pick<FuzzRequest, "body" | "headers">> {
  const part = fc.record({ name: fc.oneof(fc.constantFrom("notes.txt", "pixel.png", ""), hostileString), tags: fc.array(hostileString, { maxLength: 3 }), visibility: fc.option(hostileString, { nil: undefined }) });
  const form = part.map(({ name, tags, visibility }) => {
    const data = new FormData();
    for (const tag of tags) data.append("tags", tag);
    if (visibility !== undefined) data.append("visibility", visibility);
    data.append("file", new Blob(["hello"], { type: "text/plain" }), name);
    return { headers: {}, body: data as FuzzRequest["body"] };
  });
  // A filename* parameter carries what FormData cannot: an escaped NUL, bytes that are not UTF-8.
  const raw = fc.constantFrom("notes%00.txt", "%C0%AE.txt", "a%ED%A0%80").map((encoded) => {
    const boundary = "fuzz-boundary";
    const body = [`--${boundary}`, `Content-Disposition: form-data; name="file"; filename*=UTF-8''${encoded}`, "", "hello", `--${boundary}--`, ""].join("\r\n");
    return { headers: { "content-type": `multipart/form-data; boundary=${boundary}` }, body };
  });
  return fc.oneof({ weight: 4, arbitrary: form }, { weight: 1, arbitrary: raw });
}

const MCP_METHODS = ["initialize", "notifications/initialized", "ping", "tools/list", "tools/call", "resources/list", "resources/read", "resources/templates/list", "prompts/list", "server/discover", "completion/complete", "no/such/method"] as const;
const MODERN_META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "fuzz", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };

/** A header value fetch can send (Latin-1, no control characters), or nothing. */
const headerSafe = (value: string): string | undefined => (/^[\x20-\x7e]{0,200}$/.test(value) ? value : undefined);

function mcpParams(method: string, t: FuzzTargets): fc.Arbitrary<Record<string, unknown>> {
  const args = fc.dictionary(fc.oneof(fc.constantFrom("id", "text", "a", "b", "q"), hostileString), fc.oneof(hostileString, fc.jsonValue({ maxDepth: 3 })), { maxKeys: 4 });
  if (method === "tools/call") return fc.record({ name: fc.oneof(fc.constantFrom("echo", "add", "current_time", ...(t.ids.toolName ?? [])), hostileString), arguments: fc.oneof(args, fc.jsonValue({ maxDepth: 2 })) }, { requiredKeys: ["name"] });
  if (method === "resources/read") return fc.record({ uri: fc.oneof(fc.constantFrom(...(t.ids.resourceUri ?? ["crm://x"])), hostileString, fc.webUrl()) });
  if (method === "initialize") return fc.record({ protocolVersion: fc.oneof(fc.constantFrom("2025-11-25", "2025-06-18", "2024-11-05"), hostileString), capabilities: fc.jsonValue({ maxDepth: 2 }), clientInfo: fc.record({ name: hostileString, version: fc.string() }) }, { requiredKeys: [] });
  return fc.dictionary(hostileString, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 });
}

/** One POST (or GET/DELETE) to an MCP endpoint: a 2025-era or 2026-07-28 message, single or batched. */
export function mcpRequest(t: FuzzTargets): fc.Arbitrary<FuzzRequest> {
  const message = fc.constantFrom(...MCP_METHODS).chain((method) =>
    fc.record({ method: fc.constant(method), params: mcpParams(method, t), id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constant(null)) }),
  );
  return fc
    .record({
      path: fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...t.mcpPaths) }, { weight: 1, arbitrary: segmentFor(["demo", "x"]).map((s) => `/mcp/${s}`) }),
      modern: fc.boolean(),
      messages: fc.array(message, { minLength: 1, maxLength: 3 }),
      batch: fc.boolean(),
      httpMethod: fc.constantFrom("POST", "POST", "POST", "POST", "GET", "DELETE"),
      credential: fc.constantFrom(...t.credentials),
      raw: fc.option(fc.constantFrom(...RAW_BODIES), { freq: 8, nil: undefined }),
    })
    .map(({ path, modern, messages, batch, httpMethod, credential, raw }) => {
      const wire = messages.map((m) => ({ jsonrpc: "2.0", ...m, params: modern ? { ...m.params, _meta: MODERN_META } : m.params }));
      const first = messages[0];
      const headers: Record<string, string> = {
        ...authHeader(credential),
        accept: "application/json, text/event-stream",
        "content-type": "application/json",
        "mcp-protocol-version": modern ? "2026-07-28" : "2025-11-25",
      };
      if (modern) headers["mcp-method"] = first.method;
      const name = headerSafe(String(first.params.uri ?? first.params.name ?? ""));
      if (modern && name) headers["mcp-name"] = name;
      const body = httpMethod === "POST" ? (raw ?? JSON.stringify(batch ? wire : wire[0])) : undefined;
      return { method: httpMethod, path, headers, body };
    });
}
