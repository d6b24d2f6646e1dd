/**
 * HTTP answers the MCP endpoints give before a request reaches the protocol layer. They are
 * JSON-RPC error bodies, as the SDK's own transport-level refusals are, so every MCP client
 * can show the message: id null when the request was not read as a message, its own id when
 * it was ("All error returns must preserve original request ID mappings").
 */

/** JSON-RPC server-error code for transport-level refusals (the SDK uses the same). */
export const TRANSPORT_ERROR = -32000;
/** The SDK's code for an unknown or ended session. */
export const SESSION_NOT_FOUND = -32001;
export const INTERNAL_ERROR = -32603;

export function jsonRpcErrorResponse(
  status: number,
  code: number,
  message: string,
  options: { data?: unknown; headers?: Record<string, string>; id?: string | number | null } = {},
): Response {
  const error = { code, message, ...(options.data !== undefined ? { data: options.data } : {}) };
  return Response.json(
    { jsonrpc: "2.0", error, id: options.id ?? null },
    { status, headers: { "cache-control": "no-store", ...options.headers } },
  );
}

/**
 * 401 with the RFC 6750 challenge; `error` is set only when a credential was presented. It names
 * the endpoint's RFC 9728 metadata and the scope it needs, which is how an OAuth MCP client
 * finds where to get a token (lib/oauth/protected-resource.ts).
 */
export function unauthorizedResponse(reason: "missing" | "invalid", resource: { metadataUrl: string; scope: string }): Response {
  const challenge =
    `Bearer realm="switchboard", resource_metadata="${resource.metadataUrl}", scope="${resource.scope}"` +
    (reason === "missing" ? "" : ', error="invalid_token", error_description="The API key is unknown, revoked or expired."');
  const message =
    reason === "missing"
      ? "Authentication required: send an API key as `Authorization: Bearer <key>`."
      : "The API key is unknown, revoked or expired.";
  return jsonRpcErrorResponse(401, TRANSPORT_ERROR, message, { headers: { "www-authenticate": challenge } });
}

export function rateLimitedResponse(retryAfterMs: number): Response {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return jsonRpcErrorResponse(429, TRANSPORT_ERROR, "Too many requests; retry later.", {
    data: { retryAfterMs },
    headers: { "retry-after": String(seconds) },
  });
}

/** The answer for a server that is missing or that this caller may not see: identical for both. */
export function serverNotFoundResponse(id: string | number | null = null): Response {
  return jsonRpcErrorResponse(404, TRANSPORT_ERROR, "MCP server not found.", { id });
}

/** The id of a posted JSON-RPC request, for an error answered at the edge; null for anything else. */
export function jsonRpcIdOf(message: unknown): string | number | null {
  if (message === null || typeof message !== "object" || Array.isArray(message)) return null;
  const { method, id } = message as { method?: unknown; id?: unknown };
  return typeof method === "string" && (typeof id === "string" || typeof id === "number") ? id : null;
}

export function sessionNotFoundResponse(): Response {
  return jsonRpcErrorResponse(404, SESSION_NOT_FOUND, "Session not found");
}

export function unavailableResponse(): Response {
  return jsonRpcErrorResponse(503, INTERNAL_ERROR, "The service is temporarily unavailable; retry shortly.", {
    headers: { "retry-after": "5" },
  });
}

export function bodyTooLargeResponse(maxBytes: number): Response {
  return jsonRpcErrorResponse(413, TRANSPORT_ERROR, `Request body too large (limit ${maxBytes} bytes).`);
}

export function methodNotAllowedResponse(): Response {
  return jsonRpcErrorResponse(405, TRANSPORT_ERROR, "Method not allowed.", { headers: { allow: "GET, POST, DELETE" } });
}
