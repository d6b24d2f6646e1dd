import type { ConnectorView } from "@/lib/connectors/connector-view";
import { defaultHttpAnnotations } from "@/lib/connectors/tool-fields";
import type { ToolOverrideView } from "@/lib/servers/tool-overrides";
import type { CuratedRow } from "@/lib/servers/tool-curation-model";

/**
 * The server page's curation rows: every tool of the assigned connectors, in assignment order,
 * with its override, then the overrides whose tool is gone upstream (kept, shown as such). A
 * tool waiting for approval shows what is served: a changed one its approved definition, a new
 * one that it is not served yet.
 */
export function curationRows(connectorIds: string[], connectors: ConnectorView[], overrides: ToolOverrideView[]): CuratedRow[] {
  const byKey = new Map(overrides.map((o) => [`${o.connectorId}\u0000${o.tool}`, o]));
  const rows: CuratedRow[] = [];
  for (const id of connectorIds) {
    const c = connectors.find((x) => x.id === id);
    if (!c) continue;
    for (const t of c.tools) {
      const key = `${c.id}\u0000${t.name}`;
      // A changed tool waiting for approval is served with its approved definition: the model sees that one.
      const served = t.approval?.state === "changed" && t.approval.approved ? t.approval.approved : t;
      const annotations = (served.annotations as CuratedRow["own"]["annotations"]) ?? (t.request ? defaultHttpAnnotations(t.request.method) : null);
      const own = { description: served.description, annotations };
      rows.push({ key, connectorId: c.id, connectorName: c.name, tool: t.name, own, override: byKey.get(key) ?? null, missing: false, waiting: t.approval?.state ?? null });
      byKey.delete(key);
    }
  }
  for (const [key, o] of byKey) {
    const c = connectors.find((x) => x.id === o.connectorId);
    rows.push({ key, connectorId: o.connectorId, connectorName: c?.name ?? o.connectorId, tool: o.tool, own: { description: "", annotations: null }, override: o, missing: true, waiting: null });
  }
  return rows;
}
