import type { SnapshotConnector, SnapshotTool } from "@/lib/mcp/visibility/snapshot-types";
import { entityOfIdField, entityOfToolName, isOwnIdField, labelOfKey } from "@/lib/knowledge-graph/entity-names";

/**
 * The knowledge graph of the connectors a caller can use (seed 004 "Knowledge graph"): a
 * static layer derived from their tools, overlaid with the manual layer their admins wrote.
 * Built only from a CallerView's connectors — which carry only the caller's allowed tools —
 * so nothing of a connector the caller cannot use can enter it, not even as an edge's end.
 */

export interface GraphToolUse {
  /** The tool's exposed name (what MCP clients call). */
  tool: string;
  connectorName: string;
  use: "returns" | "takes";
  /** The parameter through which a tool takes the entity. */
  field?: string;
}

export interface GraphEntityNode {
  key: string;
  label: string;
  description: string | null;
  connectorId: string;
  connectorName: string;
  source: "derived" | "manual";
  tools: GraphToolUse[];
}

export interface GraphEdge {
  from: string;
  to: string;
  kind: string;
  description: string | null;
  source: "derived" | "manual";
}

export interface KnowledgeGraph {
  entities: GraphEntityNode[];
  relations: GraphEdge[];
}

interface Owner {
  connectorId: string;
  connectorName: string;
}

interface DraftEntity {
  nameOwner?: Owner;
  paramOwner?: Owner;
  tools: GraphToolUse[];
}

function properties(tool: SnapshotTool): string[] {
  const props = tool.inputSchema?.properties;
  return props && typeof props === "object" && !Array.isArray(props) ? Object.keys(props) : [];
}

const edgeKey = (from: string, to: string, kind: string) => `${from}\u0000${to}\u0000${kind}`;
const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The static layer: an entity per noun found in tool names (`get_customer`,
 * `list_customers` → `customer`) or id-like parameters (`customer_id`, `customerRef`), and a
 * `references` edge from a tool's entity to each entity its id-like parameters point at,
 * across connectors too. An entity is owned by the first connector (assignment order) whose
 * tool names yield it, else by the first whose parameters do.
 */
export function deriveStaticGraph(connectors: SnapshotConnector[]): KnowledgeGraph {
  const drafts = new Map<string, DraftEntity>();
  const edgeVia = new Map<string, { from: string; to: string; via: Set<string> }>();
  const draft = (key: string) => drafts.get(key) ?? drafts.set(key, { tools: [] }).get(key)!;

  for (const connector of connectors) {
    const owner = { connectorId: connector.id, connectorName: connector.name };
    for (const tool of connector.tools) {
      const record = (key: string, kind: GraphToolUse["use"], field?: string) =>
        draft(key).tools.push({ tool: tool.exposedName, connectorName: connector.name, use: kind, ...(field ? { field } : {}) });
      const own = entityOfToolName(tool.name);
      if (own) {
        draft(own.key).nameOwner ??= owner;
        if (own.returns) record(own.key, "returns");
      }
      for (const field of properties(tool)) {
        if (own && isOwnIdField(field)) record(own.key, "takes", field);
        const target = entityOfIdField(field);
        if (!target) continue;
        draft(target).paramOwner ??= owner;
        record(target, "takes", field);
        if (!own || own.key === target) continue;
        const k = edgeKey(own.key, target, "references");
        const edge = edgeVia.get(k) ?? edgeVia.set(k, { from: own.key, to: target, via: new Set() }).get(k)!;
        edge.via.add(`\`${tool.exposedName}\` takes \`${field}\``);
      }
    }
  }

  const entities = [...drafts.entries()].map(([key, d]): GraphEntityNode => {
    const owner = (d.nameOwner ?? d.paramOwner)!;
    return { key, label: labelOfKey(key), description: null, ...owner, source: "derived", tools: sortUses(d.tools) };
  });
  const relations = [...edgeVia.values()].map(
    (e): GraphEdge => ({ from: e.from, to: e.to, kind: "references", description: [...e.via].sort(byString).join("; "), source: "derived" }),
  );
  return sortGraph({ entities, relations });
}

function sortUses(uses: GraphToolUse[]): GraphToolUse[] {
  const seen = new Set<string>();
  return uses
    .filter((u) => {
      const k = `${u.tool}\u0000${u.use}\u0000${u.field ?? ""}`;
      return seen.has(k) ? false : (seen.add(k), true);
    })
    .sort((a, b) => byString(a.tool, b.tool) || byString(a.use, b.use) || byString(a.field ?? "", b.field ?? ""));
}

function sortGraph(graph: KnowledgeGraph): KnowledgeGraph {
  return {
    entities: [...graph.entities].sort((a, b) => byString(a.key, b.key)),
    relations: [...graph.relations].sort((a, b) => byString(a.from, b.from) || byString(a.to, b.to) || byString(a.kind, b.kind)),
  };
}

/**
 * The whole graph: the static layer with each visible connector's manual layer on top.
 * A manual entity replaces a derived one with the same key (label, description, owner; the
 * tools that take or return it stay); a manual relation replaces a derived one with the same
 * (from, to, kind). Among connectors, the first in assignment order wins. A manual relation
 * whose end is no entity of this graph is dropped, so an edge never names something the
 * caller cannot see.
 */
export function buildKnowledgeGraph(connectors: SnapshotConnector[]): KnowledgeGraph {
  const derived = deriveStaticGraph(connectors);
  const entities = new Map(derived.entities.map((e) => [e.key, e]));
  const manualKeys = new Set<string>();
  for (const c of connectors) {
    for (const m of c.graph.entities) {
      if (manualKeys.has(m.key)) continue;
      manualKeys.add(m.key);
      const tools = entities.get(m.key)?.tools ?? [];
      entities.set(m.key, { key: m.key, label: m.label, description: m.description, connectorId: c.id, connectorName: c.name, source: "manual", tools });
    }
  }
  const relations = new Map(derived.relations.map((r) => [edgeKey(r.from, r.to, r.kind), r]));
  const manualEdges = new Set<string>();
  for (const c of connectors) {
    for (const r of c.graph.relations) {
      const k = edgeKey(r.fromKey, r.toKey, r.kind);
      if (manualEdges.has(k) || !entities.has(r.fromKey) || !entities.has(r.toKey)) continue;
      manualEdges.add(k);
      relations.set(k, { from: r.fromKey, to: r.toKey, kind: r.kind, description: r.description, source: "manual" });
    }
  }
  return sortGraph({ entities: [...entities.values()], relations: [...relations.values()] });
}
