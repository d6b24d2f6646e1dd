import { Badge } from "@/components/ui/badge";
import { plural } from "@/components/ui/plural";
import { type DataColumn, DataTable, type DataRow } from "@/components/lists/data-table";
import type { ListedToolView } from "@/lib/connectors/list-connector-tools";

/**
 * One page of a connector's tools (a connector may have hundreds): searched, sorted and paged by
 * the URL. An http connector's tools can be removed several at once through the JSON API's bulk
 * delete; an mcp connector's come from its upstream, so there is nothing to select.
 */

const COLUMNS: DataColumn[] = [
  { id: "position", header: "#", sortable: true, wide: true, className: "w-12 text-xs tabular-nums" },
  { id: "name", header: "Tool", sortable: true, className: "max-w-96" },
  { id: "request", header: "Request", wide: true, className: "font-mono text-xs whitespace-nowrap" },
  { id: "arguments", header: "Arguments", wide: true },
];

function toolCell(tool: ListedToolView) {
  return (
    <div className="grid min-w-0 gap-1">
      <span className="font-mono font-medium break-all">{tool.name}</span>
      {tool.title && <span className="font-medium break-words">{tool.title}</span>}
      {tool.description && <span className="text-sm break-words text-zinc-600 dark:text-zinc-400">{tool.description}</span>}
      <details className="text-sm">
        <summary className="cursor-pointer">Input schema</summary>
        <pre tabIndex={0} className="mt-2 max-w-[min(36rem,70vw)] overflow-x-auto rounded-md bg-zinc-50 p-3 font-mono text-xs dark:bg-zinc-950">
          {JSON.stringify(tool.inputSchema, null, 2)}
        </pre>
      </details>
    </div>
  );
}

export function ToolTable({ tools, nextCursor, connector }: { tools: ListedToolView[]; nextCursor: string | null; connector: { id: string; name: string; type: "http" | "mcp" } }) {
  const http = connector.type === "http";
  const rows = tools.map(
    (tool): DataRow => ({
      id: tool.id,
      label: tool.name,
      data: { "data-tool": tool.name },
      cells: {
        position: tool.position + 1,
        name: toolCell(tool),
        request: tool.request ? `${tool.request.method} ${tool.request.path}` : "—",
        arguments: <Badge>{plural(Object.keys((tool.inputSchema.properties as object | undefined) ?? {}).length, "argument")}</Badge>,
      },
    }),
  );
  return (
    <DataTable
      caption={`Tools of ${connector.name}`}
      columns={http ? COLUMNS : COLUMNS.filter((c) => c.id !== "request")}
      rows={rows}
      nextCursor={nextCursor}
      searchLabel="Search tools"
      bulk={
        http
          ? {
              verb: "Delete",
              noun: "tool",
              endpoint: `/api/v1/connectors/${connector.id}/tools/bulk-delete`,
              warning: "MCP clients stop seeing them on this connector's servers. Unsaved edits in the tool editor below are discarded.",
            }
          : undefined
      }
    />
  );
}
