import { createHash } from "node:crypto";
import { insertToolCallEvent, mergeToolCallEnding } from "@/lib/audit/write-tool-call-rows";
import { AppError } from "@/lib/errors";
import type { ToolAuditDetail } from "@/lib/generated/prisma/client";
import { errorText, logger } from "@/lib/log";
import type { CallOutcome } from "@/lib/connectors/runtime/outcome";
import type { ToolCallInput, ToolCallResult } from "@/lib/connectors/runtime/types";
import { auditExcerpt } from "@/lib/connectors/runtime/audit-excerpt";

/**
 * The audit trail of tool calls: who called which tool of which connector on which server,
 * how long it took and how it ended. The event is written (status "started") before the call
 * leaves the platform and completed after, so a call the audit log cannot record is never
 * made. What else it keeps is the org's `toolAuditDetail`: by default only the size and
 * sha-256 of the arguments and of the result, because a result can hold a member's private
 * file that the admins reading the log may not open ("The audit log is no side door to
 * private content").
 */

export const TOOL_CALL_ACTION = "tool.call";

/** The call was not made: its audit event could not be written (the database is unreachable). */
export class ToolCallNotAuditedError extends AppError {
  constructor() {
    super("unavailable", "The tool call was not made: it could not be recorded in the audit log. Try again in a moment.");
    this.name = "ToolCallNotAuditedError";
  }
}

/** Size and sha-256 of a value's JSON form: enough to tell calls apart without keeping them. */
function fingerprint(value: unknown): { bytes: number; sha256: string } {
  const json = JSON.stringify(value) ?? "null";
  return { bytes: Buffer.byteLength(json), sha256: createHash("sha256").update(json).digest("hex") };
}

function keepsArguments(detail: ToolAuditDetail): boolean {
  return detail === "arguments" || detail === "arguments_and_results";
}

/**
 * Writes the call's event before the call; throws ToolCallNotAuditedError when it cannot, and
 * the caller must then not make the call. Returns the event's id for finishToolCallEvent.
 */
export async function beginToolCallEvent(input: ToolCallInput): Promise<string> {
  const { server, connectors, org } = input.view.snapshot;
  const connector = connectors.find((c) => c.id === input.tool.connectorId);
  const args = fingerprint(input.args);
  try {
    return await insertToolCallEvent(input.caller, {
      orgId: server.orgId,
      workspaceId: server.workspaceId,
      action: TOOL_CALL_ACTION,
      targetType: "connector",
      targetId: input.tool.connectorId,
      data: {
        serverId: server.id,
        connectorId: input.tool.connectorId,
        connectorSlug: connector?.slug ?? null,
        tool: input.tool.name,
        exposedName: input.tool.exposedName,
        status: "started",
        detail: org.toolAuditDetail,
        argumentsSize: args.bytes,
        argumentsSha256: args.sha256,
        ...(keepsArguments(org.toolAuditDetail) ? { arguments: auditExcerpt(input.args) } : {}),
      },
    });
  } catch (e) {
    logger.error({ err: errorText(e), serverId: server.id }, "tool call refused: its audit event could not be written");
    throw new ToolCallNotAuditedError();
  }
}

export interface ToolCallEnd {
  result: ToolCallResult;
  outcome: CallOutcome;
  durationMs: number;
  /** The JSON-RPC error code the upstream answered, which the client receives as that error. */
  errorCode?: number;
}

/**
 * Completes the event with how the call ended. The call has happened by now, so a failure
 * here is logged and the event stays "started" — the log still shows the call was made.
 */
export async function finishToolCallEvent(eventId: string, input: ToolCallInput, end: ToolCallEnd): Promise<void> {
  const { server, org } = input.view.snapshot;
  try {
    const result = fingerprint(end.result);
    const ending = {
      status: "finished",
      outcome: end.outcome,
      durationMs: end.durationMs,
      ...(end.errorCode !== undefined ? { errorCode: end.errorCode } : {}),
      resultSize: result.bytes,
      resultSha256: result.sha256,
      ...(org.toolAuditDetail === "arguments_and_results" ? { result: auditExcerpt(end.result) } : {}),
    };
    // One statement, shared with the calls ending at the same moment: the ending is merged
    // into the event's data in the database (jsonb ||).
    await mergeToolCallEnding(server.orgId, eventId, ending);
  } catch (e) {
    logger.error({ err: errorText(e), serverId: server.id, eventId }, "tool call audit event not completed");
  }
}
