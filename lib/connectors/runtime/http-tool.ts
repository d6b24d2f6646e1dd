import { redactSecrets } from "@/lib/connectors/secret-headers";
import { loadConnectorSecrets } from "@/lib/connectors/runtime/connector-secrets";
import { fetchWithLimits, RedirectRefusedError, ResponseTooLargeError } from "@/lib/connectors/runtime/http-fetch";
import { planHttpRequest, RequestPlanError, type PlannedRequest } from "@/lib/connectors/runtime/http-request";
import { KEEP_TEXT, responseToAnswer } from "@/lib/connectors/runtime/http-response";
import { failed, type RuntimeAnswer } from "@/lib/connectors/runtime/outcome";
import type { SnapshotConnector, SnapshotTool } from "@/lib/mcp/visibility/snapshot-types";
import type { CallFlight } from "@/lib/connectors/runtime/call-flight";
import { afterStepUp, upstreamCredential } from "@/lib/connectors/upstream-auth/credential";
import { connectAnswer } from "@/lib/connectors/upstream-auth/connect-answer";
import { sendWithCredential, StepUpRequired } from "@/lib/connectors/upstream-auth/http-credential";
import { NeedsReconnectError } from "@/lib/connectors/upstream-auth/tokens";

/**
 * Executes a tool of an `http` connector: the request built from the tool's mapping against
 * the connector's baseUrl, with its decrypted headers, within the call's limits (the call
 * pipeline's limits step: HTTP_TOOL_TIMEOUT_MS and HTTP_TOOL_MAX_RESPONSE_BYTES). Every
 * failure is an isError result; none throws.
 */

/** The limits an http tool call runs under (lib/connectors/pipeline/limit-call.ts decides them). */
export interface HttpToolLimits {
  timeoutMs: number;
  maxResponseBytes: number;
}

/** Runs one http tool call; `signal` aborts it (the MCP client went away). */
export async function callHttpTool(
  connector: SnapshotConnector,
  tool: SnapshotTool,
  args: Record<string, unknown>,
  configVersion: number,
  signal: AbortSignal | undefined,
  /** Who calls (their OAuth connection, lib/connectors/upstream-auth) and how they can be asked to connect. */
  access: { userId: string | null; flight?: CallFlight },
  limits: HttpToolLimits,
): Promise<RuntimeAnswer> {
  if (!tool.request || !connector.config.baseUrl) return failed(`The tool "${tool.exposedName}" has no HTTP request configured.`);
  let planned: PlannedRequest;
  try {
    planned = planHttpRequest(connector.config.baseUrl, tool.request, args);
  } catch (e) {
    if (e instanceof RequestPlanError) return failed(e.message);
    return failed("The connector's base URL is not a valid URL.");
  }
  let headers: Record<string, string>;
  try {
    ({ headers } = await loadConnectorSecrets(connector.orgId, connector.id, configVersion));
  } catch {
    return failed("The connector's credentials cannot be loaded; ask an admin to check the connector.");
  }
  const credential = await upstreamCredential(connector, access.userId, configVersion);
  if (credential.kind === "missing") return connectAnswer(credential, access.flight);
  // Every header value sent (a token included) is scrubbed from what comes back.
  const sent: Record<string, string> = { ...headers };
  const scrubber = () => (Object.keys(sent).length > 0 ? (text: string) => redactSecrets(text, sent) : KEEP_TEXT);
  const limit = limits.timeoutMs;
  const deadline = callDeadline(limit, signal);
  try {
    const response = await sendWithCredential(credential, headers, { baseUrl: connector.config.baseUrl, orgId: connector.orgId }, (secretHeaders) => {
      Object.assign(sent, secretHeaders);
      return fetchWithLimits({
        ...planned,
        secretHeaders,
        headers: {
          accept: "application/json, text/*;q=0.9, */*;q=0.8",
          "content-type": "application/json",
          "user-agent": "switchboard-connector/0.1",
        },
        maxBytes: limits.maxResponseBytes,
        signal: deadline.signal,
      });
    });
    return responseToAnswer(response, scrubber(), { select: tool.select, outputSchema: tool.outputSchema });
  } catch (e) {
    // A step-up (403 insufficient_scope): nothing usable was answered; the connection is marked and the caller told who connects again.
    if (e instanceof StepUpRequired) {
      const shared = credential.kind === "token" && credential.shared;
      return connectAnswer(await afterStepUp(connector, access.userId, { connectionId: e.connectionId, shared }, e.scope), access.flight);
    }
    // A refused refresh: nothing was answered, the person connects again.
    if (e instanceof NeedsReconnectError) {
      const again = await upstreamCredential(connector, access.userId, configVersion);
      if (again.kind === "missing") return connectAnswer(again, access.flight);
    }
    return failed(scrubber()(describeFailure(e, planned.url, limit, deadline.timedOut())));
  } finally {
    deadline.clear();
  }
}

/**
 * One signal for the exchange: aborted after `limit` ms or when the caller's `signal` is. A
 * plain timer cleared when the call ends, where AbortSignal.timeout and AbortSignal.any
 * each cost a per-call weak reference and finalizer (visible in the tools/call profile).
 */
function callDeadline(limit: number, signal?: AbortSignal): { signal: AbortSignal; timedOut(): boolean; clear(): void } {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`The operation timed out after ${limit} ms.`, "TimeoutError"));
  }, limit);
  const cancel = () => controller.abort(signal?.reason);
  if (signal?.aborted) cancel();
  else signal?.addEventListener("abort", cancel, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    clear: () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", cancel);
    },
  };
}

function describeFailure(e: unknown, url: URL, limit: number, timedOut: boolean): string {
  const target = `${url.protocol}//${url.host}`;
  if (e instanceof ResponseTooLargeError) return `The answer from ${target} was not used: ${e.message}.`;
  if (e instanceof RedirectRefusedError) return `The request to ${target} was redirected and not followed: ${e.message}.`;
  if (timedOut) return `The request to ${target} did not finish within ${limit} ms.`;
  if (e instanceof Error && e.name === "AbortError") return `The request to ${target} was cancelled.`;
  return `The request to ${target} failed: ${causeText(e)}.`;
}

/** "fetch failed" says nothing; the cause (ECONNREFUSED, ENOTFOUND, a TLS error) does. */
function causeText(e: unknown): string {
  const parts: string[] = [];
  for (let err: unknown = e, depth = 0; err && depth < 4; err = (err as { cause?: unknown }).cause, depth++) {
    const message = err instanceof Error ? err.message : String(err);
    if (message && message !== "fetch failed" && !parts.includes(message)) parts.push(message);
  }
  return (parts.join(": ") || "network error").replace(/\s+/g, " ").slice(0, 300);
}
