import { isDeepStrictEqual } from "node:util";
import { Prisma } from "@/lib/generated/prisma/client";
import type { ToolRowInput } from "@/lib/connectors/tool-rows";

/**
 * Changed tools wait for approval (issue 26 point 2, the "rug pull" defence): on a connector
 * with `toolApproval`, a re-discovered tool whose description, input schema or annotations
 * differ from what an admin approved keeps serving the approved definition, and a tool that
 * appears is not served, until an admin approves (lib/connectors/approve-tool.ts). The first
 * discovery — a connector without tools yet — is approved by the admin who makes it.
 */

export type ApprovalState = "changed" | "new";

/** What an approval covers, and what a changed tool keeps serving. */
export interface ApprovedDefinition {
  title: string | null;
  description: string;
  inputSchema: unknown;
  annotations: unknown;
}

export interface StoredToolState {
  name: string;
  title: string | null;
  description: string;
  inputSchema: unknown;
  annotations: unknown;
  approvalState: string | null;
  approvedDefinition: unknown;
}

/** A plain JSON value to compare; a discovered row's SQL NULL (Prisma.DbNull, an object) is null. */
function json(value: unknown): unknown {
  if (value === Prisma.DbNull || value === Prisma.JsonNull || value === Prisma.AnyNull) return null;
  return JSON.parse(JSON.stringify(value ?? null));
}

/** The definition an admin approved for a stored tool: the kept one while it waits, else its own. */
function approvedOf(row: StoredToolState): ApprovedDefinition {
  if (row.approvalState === "changed" && row.approvedDefinition && typeof row.approvedDefinition === "object") return row.approvedDefinition as ApprovedDefinition;
  return { title: row.title, description: row.description, inputSchema: row.inputSchema, annotations: row.annotations };
}

function sameDefinition(a: ApprovedDefinition, b: ApprovedDefinition): boolean {
  return isDeepStrictEqual(json(a.description), json(b.description)) && isDeepStrictEqual(json(a.inputSchema), json(b.inputSchema)) && isDeepStrictEqual(json(a.annotations), json(b.annotations));
}

/** Discovered rows with their approval state, given the rows stored before; unchanged when approval is off. */
export function withApprovalStates(rows: ToolRowInput[], previous: StoredToolState[], approvalOn: boolean): ToolRowInput[] {
  if (!approvalOn || previous.length === 0) return rows;
  const before = new Map(previous.map((p) => [p.name, p]));
  return rows.map((row) => {
    const prior = before.get(row.name);
    if (!prior) return { ...row, approvalState: "new" };
    if (prior.approvalState === "new") return { ...row, approvalState: "new" };
    const approved = approvedOf(prior);
    const found: ApprovedDefinition = { title: row.title ?? null, description: row.description ?? "", inputSchema: row.inputSchema, annotations: row.annotations ?? null };
    if (sameDefinition(approved, found)) return row;
    return { ...row, approvalState: "changed", approvedDefinition: json(approved) as Prisma.InputJsonValue };
  });
}

/** The tools that wait after a discovery, for the audit event and the connector page. */
export function waitingTools(rows: ToolRowInput[]): Array<{ tool: string; change: ApprovalState }> {
  return rows.flatMap((r) => (r.approvalState === "changed" || r.approvalState === "new" ? [{ tool: r.name, change: r.approvalState }] : []));
}

/**
 * A stored tool as it may be served: null for a new tool waiting (not served), the approved
 * definition for a changed one, itself otherwise — or always itself when approval is off.
 */
export function servableTool<T extends StoredToolState>(row: T, approvalOn: boolean): T | null {
  if (!approvalOn || !row.approvalState) return row;
  if (row.approvalState === "new") return null;
  const approved = approvedOf(row);
  return { ...row, title: approved.title, description: approved.description, inputSchema: approved.inputSchema, annotations: approved.annotations } as T;
}
