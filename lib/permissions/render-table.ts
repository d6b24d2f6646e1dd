import { ACTIONS, CREDENTIAL_KINDS, KIND_LABELS, kindAllows, PERMISSIONS } from "@/lib/permissions/table";

/** The markers between which README.md holds the rendered table (scripts/render-permission-table.ts writes it). */
export const TABLE_START = "<!-- permission-table:start (generated from lib/permissions/table.ts: npm run permissions:readme) -->";
export const TABLE_END = "<!-- permission-table:end -->";

/** The permission table as Markdown: one row per action, one column per kind of credential. */
export function renderPermissionTable(): string {
  const header = `| action | ${CREDENTIAL_KINDS.map((k) => KIND_LABELS[k]).join(" | ")} |`;
  const rule = `|---|${CREDENTIAL_KINDS.map(() => ":-:").join("|")}|`;
  const rows = ACTIONS.map((action) => {
    const cells = CREDENTIAL_KINDS.map((kind) => (kindAllows(kind, action) ? "✓" : "—"));
    return `| \`${action}\`: ${PERMISSIONS[action].says} | ${cells.join(" | ")} |`;
  });
  return [header, rule, ...rows].join("\n");
}

/** `text` with the part between the markers replaced by the rendered table. */
export function withRenderedTable(text: string): string {
  const start = text.indexOf(TABLE_START);
  const end = text.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error("README.md has no permission-table markers");
  return `${text.slice(0, start + TABLE_START.length)}\n${renderPermissionTable()}\n${text.slice(end)}`;
}
