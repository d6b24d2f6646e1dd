import { defaultHttpAnnotations } from "@/lib/connectors/tool-fields";
import type { SnapshotTool } from "@/lib/mcp/visibility/snapshot-types";

interface StoredTool {
  request: unknown;
  annotations: unknown;
  outputSchema: unknown;
  response: unknown;
}

function objectOrNull(value: unknown): Record<string, unknown> | null {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/**
 * Annotations, output schema and answer selection of a stored tool as served (issue 26):
 * an http tool without stored annotations says what its method does.
 */
export function servedToolFields(row: StoredTool): Pick<SnapshotTool, "annotations" | "outputSchema" | "select"> {
  const request = objectOrNull(row.request);
  const method = typeof request?.method === "string" ? request.method : null;
  const stored = objectOrNull(row.annotations);
  const select = objectOrNull(row.response)?.select;
  return {
    annotations: stored ?? (method ? { ...defaultHttpAnnotations(method) } : null),
    outputSchema: objectOrNull(row.outputSchema),
    select: typeof select === "string" ? select : null,
  };
}
