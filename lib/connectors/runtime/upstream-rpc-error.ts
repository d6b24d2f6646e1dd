import { SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import { scrubJson } from "@/lib/connectors/runtime/scrub-flight";
import { redactSecrets } from "@/lib/connectors/secret-headers";

/**
 * A JSON-RPC error the upstream MCP server answered a call with, to be passed on as one
 * (issue 12 "Upstream JSON-RPC errors come back as JSON-RPC errors with their code and data
 * (secrets scrubbed as today); only tool execution failures are `isError` results"). The
 * runtime audits the call first, then throws this; the protocol layer puts it on the wire.
 */
export class UpstreamRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "UpstreamRpcError";
  }
}

/** The upstream's error with the connection's secret header values redacted from its message and data. */
export function scrubbedRpcError(code: number, message: string, data: unknown, headers: Record<string, string>): UpstreamRpcError {
  const text = redactSecrets(message, headers).slice(0, 500);
  if (data === undefined) return new UpstreamRpcError(code, text);
  // A redaction that broke the JSON drops the data rather than leak it.
  return new UpstreamRpcError(code, text, scrubJson(data, headers));
}

/** SDK errors about one request, not about the connection it went over. */
const CALL_SCOPED: ReadonlySet<string> = new Set([
  // The SDK cancels a request it stops waiting for; the connection itself answered nothing wrong.
  SdkErrorCode.RequestTimeout,
  SdkErrorCode.InvalidResult,
  SdkErrorCode.UnsupportedResultType,
  SdkErrorCode.InputRequiredRoundsExceeded,
  SdkErrorCode.CapabilityNotSupported,
  SdkErrorCode.MethodNotSupportedByProtocolVersion,
]);

/** True when `e` failed only this request: the pooled connection stays open for the next one. */
export function isCallScoped(e: unknown): boolean {
  return e instanceof SdkError && CALL_SCOPED.has(e.code);
}
