import type { Caller } from "@/lib/auth/caller";
import { assertCredentialMay } from "@/lib/permissions/guards";
import { type AuditEventView, auditEventsOf } from "@/lib/audit/list-audit-events";
import type { AuditExportQuery } from "@/lib/audit/schemas";

/**
 * The audit log of a filter as a file: CSV (one row per event, names beside ids) or JSON Lines
 * (each line the event exactly as the JSON API lists it). Produced as text chunks, a page of
 * events each, for the HTTP adapter to stream.
 */

const CSV_COLUMNS = [
  "createdAt", "actorType", "actorId", "actor", "action", "targetType", "targetId", "target",
  "workspaceId", "workspace", "server", "connector", "tool", "outcome", "durationMs", "data", "traceId",
] as const;

/**
 * RFC 4180 quoting; a cell a spreadsheet would run as a formula (= + - @ first) gets a leading
 * apostrophe, so an exported tool name or argument cannot execute when the file is opened.
 */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csvRow(e: AuditEventView): string {
  const cells: Record<(typeof CSV_COLUMNS)[number], unknown> = {
    createdAt: e.createdAt.toISOString(),
    actorType: e.actorType,
    actorId: e.actorId,
    actor: e.names.actor,
    action: e.action,
    targetType: e.targetType,
    targetId: e.targetId,
    target: e.names.target,
    workspaceId: e.workspaceId,
    workspace: e.names.workspace,
    server: e.names.server,
    connector: e.names.connector,
    tool: e.toolCall?.tool,
    outcome: e.toolCall?.outcome,
    durationMs: e.toolCall?.durationMs,
    data: e.data,
    traceId: e.traceId,
  };
  return CSV_COLUMNS.map((c) => csvCell(cells[c])).join(",");
}

export interface AuditExport {
  contentType: string;
  filename: string;
  chunks: AsyncIterable<string>;
}

export async function exportAuditEvents(caller: Caller, orgId: string, query: AuditExportQuery, now = new Date()): Promise<AuditExport> {
  assertCredentialMay(caller, "audit.read");
  const { format, ...filters } = query;
  const pages = await auditEventsOf(caller, orgId, filters);
  const stamp = now.toISOString().slice(0, 19).replaceAll(":", "-");
  async function* chunks(): AsyncGenerator<string> {
    if (format === "csv") yield `${CSV_COLUMNS.join(",")}\r\n`;
    for await (const page of pages) {
      if (page.length === 0) continue;
      yield format === "csv" ? page.map((e) => `${csvRow(e)}\r\n`).join("") : page.map((e) => `${JSON.stringify(e)}\n`).join("");
    }
  }
  return {
    contentType: format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
    filename: `audit-${orgId}-${stamp}.${format === "csv" ? "csv" : "jsonl"}`,
    chunks: chunks(),
  };
}
