import { createHash } from "node:crypto";
import { insertCallEvent, insertCallEventIfCurrent, submitCallEnding } from "@/lib/audit/write-call-rows";
import { AssumedVersionsMovedError } from "@/lib/config-version/read-current-version";
import type { AuditAction } from "@/lib/audit/actions";
import { AppError } from "@/lib/errors";
import type { ToolAuditDetail } from "@/lib/generated/prisma/client";
import { errorText, logger } from "@/lib/log";
import { auditExcerpt } from "@/lib/connectors/runtime/audit-excerpt";
import { type CallAnswer, type CallContext, isHostRequest, type PipelineContext, type SharedStep } from "@/lib/connectors/pipeline/call-context";
import type { HostRequestContext } from "@/lib/connectors/pipeline/host-request-context";
import { isHostResourcesError } from "@/lib/host-resources/errors";

/**
 * The audit step of every call in flight: who called what of which connector on which server,
 * how long it took and how it ended. The event is written (status "started") and committed
 * before the call leaves the platform, so a call the audit log cannot record is never made;
 * that row is the durable record. The ending is merged into it after the answer, without
 * holding the answer back: a crash in between leaves the row "started", which the audit page
 * and API show as outcome unknown — never a missing call.
 *
 * What else it keeps: tools/call and prompts/get follow the org's `toolAuditDetail` (by
 * default only the size and sha-256 of the arguments and of the result, because a result can
 * hold a member's private file the admins reading the log may not open, "The audit log is no
 * side door to private content"); a resource read keeps its URI and size, never its content.
 *
 * A host-resource request (an upstream reading or listing the caller's files) goes the other
 * way: nothing leaves the platform until its answer does, so its one row — who, which
 * connector, which file (URI, size, MIME type) or filter and count, the outcome or the
 * JSON-RPC error code, never the content — is written with the answer and committed before
 * the answer is sent: the same guarantee (no file leaves unaudited) in one write instead of two.
 */

/** Each kind's audit action, and what its refusal says when its row cannot be written. */
const KINDS: Record<PipelineContext["kind"], { action: AuditAction; notMade: string }> = {
  "tools/call": { action: "tool.call", notMade: "The tool call was not made" },
  "prompts/get": { action: "prompt.get", notMade: "The prompt was not fetched" },
  "resources/read": { action: "resource.read", notMade: "The resource was not read" },
  "host_resources/read": { action: "host_resources.read", notMade: "The file was not read" },
  "host_resources/list": { action: "host_resources.list", notMade: "The files were not listed" },
};

/** The call was not made: its audit event could not be written (the database is unreachable). */
export class CallNotAuditedError extends AppError {
  constructor(kind: PipelineContext["kind"]) {
    super("unavailable", `${KINDS[kind].notMade}: it could not be recorded in the audit log. Try again in a moment.`);
    this.name = "CallNotAuditedError";
  }
}

/**
 * The call was cancelled (its client's notifications/cancelled, or its request gone) while its
 * started row waited on configuration versions that turned out to have moved: nothing was
 * inserted or sent, and, unlike AssumedVersionsMovedError, the request is not served again —
 * that would make the call its client has just cancelled.
 */
export class CallCancelledError extends Error {
  constructor(kind: PipelineContext["kind"]) {
    super(`${KINDS[kind].notMade}: its client cancelled it.`);
    this.name = "CallCancelledError";
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

/** What the started row says of the call, by kind. */
function startData(ctx: CallContext): Record<string, unknown> {
  const { server, org } = ctx.view.snapshot;
  const base = { serverId: server.id, connectorId: ctx.connector.id, connectorSlug: ctx.connector.slug };
  if (ctx.kind === "resources/read") return { ...base, uri: ctx.names.upstream, status: "started" };
  const args = fingerprint(ctx.args ?? {});
  return {
    ...base,
    [ctx.kind === "tools/call" ? "tool" : "prompt"]: ctx.names.upstream,
    exposedName: ctx.names.exposed,
    status: "started",
    detail: org.toolAuditDetail,
    argumentsSize: args.bytes,
    argumentsSha256: args.sha256,
    ...(keepsArguments(org.toolAuditDetail) ? { arguments: auditExcerpt(ctx.args ?? {}) } : {}),
  };
}

/**
 * Writes the started row; throws CallNotAuditedError when it cannot, and the call is then not
 * made. A request that assumed configuration versions (CallFlight.assumedVersions) has its row
 * inserted only while they are current; when one has moved nothing is inserted, and
 * AssumedVersionsMovedError has the request served again with versions read — unless the call
 * was cancelled meanwhile (CallCancelledError: nothing to serve again).
 */
async function begin(ctx: CallContext): Promise<string> {
  const { server } = ctx.view.snapshot;
  const assumed = ctx.flight?.assumedVersions;
  let id: string | null;
  try {
    const event = { orgId: server.orgId, workspaceId: server.workspaceId, action: KINDS[ctx.kind].action, targetType: "connector", targetId: ctx.connector.id, data: startData(ctx) as never };
    id = assumed?.size ? await insertCallEventIfCurrent(ctx.caller, event, assumed) : await insertCallEvent(ctx.caller, event);
  } catch (e) {
    logger.error({ err: errorText(e), serverId: server.id, kind: ctx.kind }, "call refused: its audit event could not be written");
    throw new CallNotAuditedError(ctx.kind);
  }
  if (id === null) throw ctx.signal?.aborted ? new CallCancelledError(ctx.kind) : new AssumedVersionsMovedError();
  if (assumed?.size) ctx.flight?.versionsConfirmed?.();
  return id;
}

/** The bytes a resource read returned (text as UTF-8, blobs decoded): its size, not its content. */
function contentsSize(result: unknown): number {
  const contents = (result as { contents?: Array<{ text?: unknown; blob?: unknown }> } | undefined)?.contents ?? [];
  return contents.reduce((sum, c) => sum + (typeof c.text === "string" ? Buffer.byteLength(c.text) : typeof c.blob === "string" ? Buffer.byteLength(c.blob, "base64") : 0), 0);
}

function endData(ctx: CallContext, answer: CallAnswer<unknown>): Record<string, unknown> {
  const ending: Record<string, unknown> = { status: "finished", outcome: answer.outcome, durationMs: answer.durationMs };
  if (answer.errorCode !== undefined) ending.errorCode = answer.errorCode;
  if (answer.thrown !== undefined && answer.result === undefined) return ending;
  if (ctx.kind === "resources/read") return { ...ending, size: contentsSize(answer.result) };
  const result = fingerprint(answer.result);
  const kept = ctx.view.snapshot.org.toolAuditDetail === "arguments_and_results";
  return { ...ending, resultSize: result.bytes, resultSha256: result.sha256, ...(kept ? { result: auditExcerpt(answer.result) } : {}) };
}

/**
 * Submits the ending, not awaited: the call has happened by now, so a failure is logged and
 * the row stays "started" (outcome unknown) — the log still shows the call was made.
 */
function finish(ctx: CallContext, eventId: string, answer: CallAnswer<unknown>): void {
  const { server } = ctx.view.snapshot;
  try {
    submitCallEnding(server.orgId, eventId, endData(ctx, answer), (e) => logger.error({ err: errorText(e), serverId: server.id, eventId }, "call audit event not completed"));
  } catch (e) {
    logger.error({ err: errorText(e), serverId: server.id, eventId }, "call audit event not completed");
  }
}

/**
 * The step. A call upstream: the started row committed before `next()`, the ending submitted
 * after it. A host-resource request: one row with the answer, committed before it is returned.
 */
export const auditCall: SharedStep = async (ctx, next) => {
  if (isHostRequest(ctx)) {
    const answer = await next();
    ctx.auditEventId = await recordHostRequest(ctx, answer as CallAnswer<unknown>);
    return answer;
  }
  ctx.auditEventId = await begin(ctx);
  const answer = await next();
  finish(ctx, ctx.auditEventId, answer as CallAnswer<unknown>);
  return answer;
};

/** The host-resource request's row: its target as the request filled it, and how it ended (the code a caller got). */
async function recordHostRequest(ctx: HostRequestContext, answer: CallAnswer<unknown>): Promise<string> {
  const { host, target } = ctx;
  const ending = answer.thrown === undefined ? { outcome: "ok" } : { outcome: "error", code: isHostResourcesError(answer.thrown) ? answer.thrown.code : -32603 };
  try {
    return await insertCallEvent(ctx.caller, {
      orgId: host.orgId,
      workspaceId: host.workspaceId,
      action: KINDS[ctx.kind].action,
      targetType: target.targetType,
      targetId: target.targetId,
      data: { connectorId: host.connectorId, ...target.data, ...ending, durationMs: answer.durationMs },
    });
  } catch (e) {
    logger.error({ err: errorText(e), connectorId: host.connectorId, kind: ctx.kind }, "host-resource request refused: its audit event could not be written");
    throw new CallNotAuditedError(ctx.kind);
  }
}
