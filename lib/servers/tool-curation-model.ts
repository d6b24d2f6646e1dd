/** The console's model of a server's tool overrides: a row per tool, its draft, the items saved. */

export type Hint = "readOnlyHint" | "destructiveHint" | "idempotentHint" | "openWorldHint";
export const HINTS: Array<[Hint, string]> = [
  ["readOnlyHint", "Only reads"],
  ["destructiveHint", "Destructive"],
  ["idempotentHint", "Idempotent"],
  ["openWorldHint", "Talks to the outside world"],
];

export interface OverrideItem {
  connectorId: string;
  tool: string;
  name?: string;
  title?: string;
  description?: string;
  annotations?: Partial<Record<Hint, boolean>>;
  hidden?: boolean;
}

export interface CuratedRow {
  key: string;
  connectorId: string;
  connectorName: string;
  /** The connector's own tool name. */
  tool: string;
  own: { description: string; annotations: Partial<Record<Hint, boolean>> | null };
  override: (OverrideItem & { missing: boolean }) | null;
  missing: boolean;
  /** Waiting for an admin's approval on its connector: "new" is not served yet. */
  waiting: "changed" | "new" | null;
}

export interface Draft {
  name: string;
  description: string;
  replaceAnnotations: boolean;
  annotations: Partial<Record<Hint, boolean>>;
  hidden: boolean;
}

export function draftOf(row: CuratedRow): Draft {
  const o = row.override;
  return {
    name: o?.name ?? "",
    description: o?.description ?? "",
    replaceAnnotations: !!o?.annotations,
    annotations: o?.annotations ?? row.own.annotations ?? {},
    hidden: o?.hidden ?? false,
  };
}

/** What the model sees of a row with this draft: name, description and the hints that are on. */
export function modelView(row: CuratedRow, draft: Draft): { name: string; description: string; hints: string[] } {
  const annotations = draft.replaceAnnotations ? draft.annotations : (row.own.annotations ?? {});
  return {
    name: draft.name.trim() || row.tool,
    description: draft.description.trim() || row.own.description,
    hints: HINTS.filter(([hint]) => annotations[hint] === true).map(([, label]) => label),
  };
}

/** The overrides to save: one per row whose draft changes anything; the title is kept as it was. */
export function itemsOf(rows: CuratedRow[], drafts: Map<string, Draft>): OverrideItem[] {
  return rows.flatMap((row) => {
    const d = drafts.get(row.key)!;
    const name = d.name.trim();
    const description = d.description.trim();
    const item: OverrideItem = {
      connectorId: row.connectorId,
      tool: row.tool,
      ...(name && name !== row.tool ? { name } : {}),
      ...(row.override?.title ? { title: row.override.title } : {}),
      ...(description && description !== row.own.description ? { description } : {}),
      ...(d.replaceAnnotations ? { annotations: d.annotations } : {}),
      ...(d.hidden ? { hidden: true } : {}),
    };
    return Object.keys(item).length > 2 ? [item] : [];
  });
}

/**
 * A refused save's field errors in the admin's words, each naming the tool it is about
 * (`items.2.name` → the third saved item's tool); an error without an item stays as it is.
 */
export function saveProblems(items: OverrideItem[], fieldErrors: Record<string, string> | undefined): string[] {
  return Object.entries(fieldErrors ?? {}).map(([path, message]) => {
    const item = items[Number(/^items\.(\d+)/.exec(path)?.[1] ?? NaN)];
    return item ? `${item.tool}: ${message}` : message;
  });
}
