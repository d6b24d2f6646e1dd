import type { Caller } from "@/lib/auth/caller";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { Prisma } from "@/lib/generated/prisma/client";
import { errorText, logger } from "@/lib/log";
import type { CallOutcome } from "@/lib/connectors/runtime/outcome";
import type { ToolCallResult } from "@/lib/connectors/runtime/types";
import type { CallerView, SnapshotTool } from "@/lib/mcp/snapshot-types";

/**
 * The audit trail of tool calls: who called which tool of which connector on which server,
 * how long it took and how it ended. Arguments and results are stored only redacted (values
 * under secret-looking keys) and truncated (at most AUDIT_EXCERPT_BYTES of JSON each).
 */

export const AUDIT_EXCERPT_BYTES = 2048;
export const TOOL_CALL_ACTION = "tool.call";

/** Words that make a key secret-looking, and word pairs that do ("api_key", "privateKey"). */
const SECRET_WORDS = new Set(["password", "passwd", "passphrase", "pwd", "token", "secret", "authorization", "auth", "cookie", "credential", "credentials", "apikey", "bearer", "signature"]);
const SECRET_PAIRS = new Set(["api key", "private key", "access key", "secret key", "session id"]);

/** "x-api-key", "accessToken", "client_secret" are secret-looking; "max_tokens" is not. */
export function isSecretKey(key: string): boolean {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  return words.some((w, i) => SECRET_WORDS.has(w) || (i > 0 && SECRET_PAIRS.has(`${words[i - 1]} ${w}`)));
}

export interface ToolCallRecord {
  caller: Caller;
  view: CallerView;
  tool: SnapshotTool;
  args: Record<string, unknown>;
  result: ToolCallResult;
  outcome: CallOutcome;
  durationMs: number;
}

/** Records one call; an audit failure is logged and never fails the call itself. */
export async function auditToolCall(record: ToolCallRecord): Promise<void> {
  const { server } = record.view.snapshot;
  const connector = record.view.snapshot.connectors.find((c) => c.id === record.tool.connectorId);
  try {
    await recordAuditEvent(record.caller, {
      orgId: server.orgId,
      workspaceId: server.workspaceId,
      action: TOOL_CALL_ACTION,
      targetType: "connector",
      targetId: record.tool.connectorId,
      configChange: false,
      data: {
        serverId: server.id,
        connectorId: record.tool.connectorId,
        connectorSlug: connector?.slug ?? null,
        tool: record.tool.name,
        exposedName: record.tool.exposedName,
        durationMs: record.durationMs,
        outcome: record.outcome,
        arguments: auditExcerpt(record.args),
        result: auditExcerpt(record.result),
      },
    });
  } catch (e) {
    logger.error({ err: errorText(e), serverId: server.id }, "tool call audit event not recorded");
  }
}

/** The value with secret-looking keys redacted, whole when its JSON fits, else a cut preview. */
export function auditExcerpt(value: unknown): Prisma.InputJsonValue {
  const clean = redactKeys(value, 0) ?? null;
  const json = JSON.stringify(clean) ?? "null";
  if (Buffer.byteLength(json) <= AUDIT_EXCERPT_BYTES) return clean as Prisma.InputJsonValue;
  const budget = AUDIT_EXCERPT_BYTES - 64; // room for the wrapper object's own keys
  return { truncated: true, bytes: Buffer.byteLength(json), preview: cutToBytes(json, budget) };
}

function redactKeys(value: unknown, depth: number): unknown {
  if (depth > 20) return "[too deep]";
  if (Array.isArray(value)) return value.map((v) => redactKeys(v, depth + 1));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isSecretKey(k) ? "[redacted]" : redactKeys(v, depth + 1)]));
  }
  return value;
}

/** The longest prefix of `text` whose UTF-8 form (as JSON inside the preview) fits `bytes`. */
function cutToBytes(text: string, bytes: number): string {
  let end = Math.min(text.length, bytes);
  while (end > 0 && Buffer.byteLength(JSON.stringify(text.slice(0, end))) > bytes) end = Math.floor(end * 0.9);
  return text.slice(0, end);
}
