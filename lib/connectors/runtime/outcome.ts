import type { ToolCallResult } from "@/lib/connectors/runtime/types";
import type { UpstreamRpcError } from "@/lib/connectors/runtime/upstream-rpc-error";

/**
 * How a call ended, for the audit trail: `ok` the tool answered; `isError` the tool answered
 * with an error (a non-2xx status, an upstream isError result); `error` the call could not be
 * made or finished (bad arguments, network failure, timeout, a dead upstream, a cap exceeded).
 */
export type CallOutcome = "ok" | "isError" | "error";

export interface RuntimeAnswer {
  result: ToolCallResult;
  outcome: CallOutcome;
  /** The upstream answered with a JSON-RPC error: audited as `result`, then thrown to the client as this. */
  rpcError?: UpstreamRpcError;
  /** Refused before anything was sent upstream (the arguments did not fit): says nothing of the upstream's health. */
  notSent?: boolean;
}

/** A failure of the call itself, as an isError result the model can read. */
export function failed(message: string): RuntimeAnswer {
  return { result: { content: [{ type: "text", text: message }], isError: true }, outcome: "error" };
}
