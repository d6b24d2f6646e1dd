import { createHash } from "node:crypto";
import { ProtocolError, type Client, type GetPromptResult } from "@modelcontextprotocol/client";
import type { Caller } from "@/lib/auth/caller";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { db } from "@/lib/db/client";
import { errorText, logger } from "@/lib/log";
import { assertStorableArguments } from "@/lib/connectors/runtime/check-argument-text";
import type { CallFlight } from "@/lib/connectors/runtime/call-flight";
import { sendInFlight } from "@/lib/connectors/runtime/send-in-flight";
import { requestUpstream } from "@/lib/connectors/runtime/upstream-request";
import type { UpstreamConnection, UpstreamPool } from "@/lib/connectors/runtime/upstream-pool";
import type { CallerView, SnapshotPrompt } from "@/lib/mcp/visibility/snapshot-types";

/**
 * prompts/get of an upstream prompt, audited like a tool call: the `prompt.get` event (who,
 * which prompt of which connector on which server, the size and sha-256 of the arguments)
 * is written before the request leaves the platform and completed with how it ended; a
 * prompt whose event cannot be written is not fetched.
 *
 * The request runs in the caller's flight, as a tool call does: an upstream asking for client
 * input — 2025-era requests, or a 2026-07-28 `input_required` answer ("InputRequiredResult is
 * universal", not only for tools) — reaches the caller as its era allows
 * (lib/mcp/serve/serve-tool-call.ts); 2026-07-28 on both sides, the upstream's
 * `input_required` goes to the caller as it is and its retry goes back with the answers.
 */

export const PROMPT_GET_ACTION = "prompt.get";
const INTERNAL_ERROR = -32603;

export interface PromptGetInput {
  caller: Caller;
  view: CallerView;
  prompt: SnapshotPrompt;
  args: Record<string, string>;
  signal?: AbortSignal;
  /** The calling client's side of the request: client input, its retry. */
  flight?: CallFlight;
}

export async function getUpstreamPrompt(input: PromptGetInput, pool?: UpstreamPool): Promise<GetPromptResult> {
  assertStorableArguments(input.args);
  const connector = input.view.connectors.find((c) => c.id === input.prompt.connectorId);
  if (!connector) throw new ProtocolError(-32602, `Unknown prompt: ${input.prompt.exposedName}`);
  const eventId = await beginEvent(input, connector.slug);
  const started = performance.now();
  let outcome = "ok";
  try {
    return await requestUpstream(
      {
        caller: input.caller,
        view: input.view,
        connector,
        signal: input.signal,
        flight: input.flight,
        work: (client, options, connection) => fetchPrompt(client, options, connection, input),
      },
      pool,
    );
  } catch (e) {
    outcome = "error";
    throw e;
  } finally {
    await finishEvent(eventId, input, { outcome, durationMs: Math.round(performance.now() - started) });
  }
}

/** prompts/get upstream inside the caller's flight (see mcp-tool.ts's sendCall for tools/call). */
function fetchPrompt(client: Client, options: { signal?: AbortSignal; timeout: number }, connection: UpstreamConnection, input: PromptGetInput): Promise<GetPromptResult> {
  return sendInFlight(connection, input.flight, (extra) => client.getPrompt({ name: input.prompt.name, arguments: input.args, ...extra.params }, { ...options, ...extra.options }));
}

async function beginEvent(input: PromptGetInput, connectorSlug: string): Promise<string> {
  const { server } = input.view.snapshot;
  const json = JSON.stringify(input.args);
  try {
    return await recordAuditEvent(input.caller, {
      orgId: server.orgId,
      workspaceId: server.workspaceId,
      action: PROMPT_GET_ACTION,
      targetType: "connector",
      targetId: input.prompt.connectorId,
      data: {
        serverId: server.id,
        connectorId: input.prompt.connectorId,
        connectorSlug,
        prompt: input.prompt.name,
        exposedName: input.prompt.exposedName,
        status: "started",
        argumentsSize: Buffer.byteLength(json),
        argumentsSha256: createHash("sha256").update(json).digest("hex"),
      },
    });
  } catch (e) {
    logger.error({ err: errorText(e), serverId: server.id }, "prompt refused: its audit event could not be written");
    throw new ProtocolError(INTERNAL_ERROR, "The prompt was not fetched: it could not be recorded in the audit log. Try again in a moment.");
  }
}

async function finishEvent(eventId: string, input: PromptGetInput, end: { outcome: string; durationMs: number }): Promise<void> {
  const { server } = input.view.snapshot;
  try {
    const ending = JSON.stringify({ status: "finished", ...end });
    await db().$executeRaw`UPDATE audit_events SET data = data || ${ending}::jsonb WHERE id = ${eventId} AND org_id = ${server.orgId}`;
  } catch (e) {
    logger.error({ err: errorText(e), serverId: server.id, eventId }, "prompt audit event not completed");
  }
}
