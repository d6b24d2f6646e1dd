import type { ConnectorToolView } from "@/lib/connectors/connector-view";

/**
 * What a tool waiting for approval changes (issue 26 point 2), field by field, for the
 * connector page's diff: the approved definition (served now) against the upstream's new
 * one. A new tool has nothing approved: every field it has is new. Client-safe (no node:).
 */

export type DiffField = "title" | "description" | "inputSchema" | "annotations";

export const FIELD_LABELS: Record<DiffField, string> = {
  title: "Title",
  description: "Description",
  inputSchema: "Input schema",
  annotations: "Annotations",
};

export interface FieldChange {
  field: DiffField;
  label: string;
  /** undefined for a new tool. */
  approved?: unknown;
  current: unknown;
}

/** A JSON value with object keys sorted, so two definitions compare by content, not key order. */
function canonical(value: unknown): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(sort) : v && typeof v === "object" ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort((v as Record<string, unknown>)[k])])) : (v ?? null);
  return JSON.stringify(sort(value));
}

/** The fields that differ (for a changed tool) or that the new tool has (for a new one). */
export function approvalChanges(tool: Pick<ConnectorToolView, "title" | "description" | "inputSchema" | "annotations" | "approval">): FieldChange[] {
  const fields = Object.keys(FIELD_LABELS) as DiffField[];
  const approved = tool.approval?.approved;
  return fields.flatMap((field): FieldChange[] => {
    const current: unknown = tool[field] ?? null;
    if (!approved) return current === null || current === "" ? [] : [{ field, label: FIELD_LABELS[field], current }];
    const before = approved[field] ?? null;
    return canonical(before) === canonical(current) ? [] : [{ field, label: FIELD_LABELS[field], approved: before, current }];
  });
}
