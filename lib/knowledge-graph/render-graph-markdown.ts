import type { GraphEntityNode, GraphToolUse, KnowledgeGraph } from "@/lib/knowledge-graph/derive-static-graph";

/**
 * The knowledge graph as the markdown of the `anythingmcp://server/<id>/knowledge-graph`
 * resource: entities (owning connector, the tools that take or return them), then relations
 * (kind and description). Same graph in, same bytes out: the graph arrives sorted.
 */

/** Inline code that survives backticks inside admin-written keys. */
function code(text: string): string {
  const fence = text.includes("`") ? "``" : "`";
  return `${fence}${fence === "``" ? ` ${text} ` : text}${fence}`;
}

/** One line of admin text: line breaks would break the list structure. */
function oneLine(text: string): string {
  return text.replace(/\s*\r?\n\s*/g, " ").trim();
}

function describeUse(u: GraphToolUse): string {
  const how = u.use === "returns" ? "returns it" : `takes it as ${code(u.field ?? "id")}`;
  return `${code(u.tool)} (${u.connectorName}) ${how}`;
}

function renderEntity(e: GraphEntityNode): string[] {
  const lines = [`### ${oneLine(e.label)} (${code(e.key)})`, "", `- Connector: ${e.connectorName}`];
  if (e.description?.trim()) lines.push(`- Description: ${oneLine(e.description)}`);
  if (e.tools.length === 0) lines.push("- Tools: none");
  else {
    lines.push("- Tools:");
    for (const u of e.tools) lines.push(`  - ${describeUse(u)}`);
  }
  lines.push("");
  return lines;
}

/** Renders the graph; an empty graph still says so, so the resource is never blank. */
export function renderGraphMarkdown(graph: KnowledgeGraph): string {
  const labels = new Map(graph.entities.map((e) => [e.key, oneLine(e.label)]));
  const lines = [
    "# Knowledge graph",
    "",
    "Entities and relations of the connectors you can use on this server, derived from their tools and completed by their administrators.",
    "",
    "## Entities",
    "",
  ];
  if (graph.entities.length === 0) lines.push("No entities.", "");
  for (const e of graph.entities) lines.push(...renderEntity(e));
  lines.push("## Relations", "");
  if (graph.relations.length === 0) lines.push("No relations.", "");
  for (const r of graph.relations) {
    const ends = `${labels.get(r.from)} (${code(r.from)}) → ${labels.get(r.to)} (${code(r.to)})`;
    const description = r.description?.trim() ? `: ${oneLine(r.description)}` : "";
    lines.push(`- ${ends} — ${code(r.kind)}${description}`);
  }
  return `${lines.join("\n").trimEnd()}\n`;
}
