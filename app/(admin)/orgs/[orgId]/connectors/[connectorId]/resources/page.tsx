import type { Metadata } from "next";
import { FileText } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { type DataColumn, DataTable, type DataRow } from "@/components/lists/data-table";
import { readListParams } from "@/app/(admin)/_lib/list-params";
import { StoredResourceListQuery } from "@/lib/resources/schemas";
import { resourceWarnings } from "@/components/connectors/resource-warnings";
import { listStoredResources } from "@/lib/resources/stored-resources";
import { type ConnectorParams, loadConnector } from "@/app/(admin)/orgs/[orgId]/connectors/[connectorId]/load";
import { DeleteResourceButton, ResourceDialog, type ResourceRow } from "@/app/(admin)/orgs/[orgId]/connectors/[connectorId]/resources/resource-dialog";

export const metadata: Metadata = { title: "Stored resources" };

type Props = { params: ConnectorParams; searchParams: Promise<Record<string, string | string[] | undefined>> };

const COLUMNS: DataColumn[] = [
  { id: "name", header: "Resource", sortable: true },
  { id: "mimeType", header: "Type", wide: true },
  { id: "actions", header: "Actions", className: "text-right" },
];

function ResourceCell({ row, warnings }: { row: ResourceRow; warnings: ReturnType<typeof resourceWarnings> }) {
  return (
    <>
      <span className="font-medium">{row.name}</span>
      <code className="block font-mono text-xs break-all">{row.uri}</code>
      {row.description && <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{row.description}</p>}
      {warnings.length > 0 && (
        <ul className="mt-2 grid gap-1">
          {warnings.map((w) => (
            <li key={w.text}>
              <Badge tone={w.level === "skipped" ? "danger" : "warning"} className="whitespace-normal">
                {w.text}
              </Badge>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

export default async function StoredResourcesPage({ params, searchParams }: Props) {
  const { orgId, connectorId } = await params;
  const { connector, caller } = await loadConnector(orgId, connectorId);
  const query = readListParams(StoredResourceListQuery, await searchParams);
  const page = await listStoredResources(caller, connector.id, query);
  const toRow = (r: (typeof page.items)[number]): ResourceRow => ({
    id: r.id,
    uri: r.uri,
    name: r.name,
    description: r.description,
    mimeType: r.mimeType,
    fetchConfig: (r.fetchConfig ?? null) as Record<string, unknown> | null,
  });
  const rows = page.items.map(toRow);
  // Duplicate-URI warnings compare with every resource of the connector, not only the matches of a search.
  const siblings = query.q || query.cursor ? (await listStoredResources(caller, connector.id, { limit: 200 })).items.map(toRow) : rows;
  return (
    <section aria-labelledby="resources-heading" className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="resources-heading" className="text-lg font-semibold">
            Stored resources
          </h2>
          <p className="max-w-prose text-sm text-zinc-600 dark:text-zinc-400">
            Read-only text MCP clients can attach to the model&apos;s context, published on every server this connector is assigned to, to callers who can use at least one of its tools.
          </p>
        </div>
        <ResourceDialog connectorId={connector.id} siblings={siblings} />
      </div>
      {rows.length === 0 && !query.cursor && !query.q ? (
        <EmptyState icon={FileText} title="No stored resources">
          Add setup notes, a schema description or any other static text as a resource with its own URI (e.g. <code className="font-mono">crm://schema</code>).
        </EmptyState>
      ) : (
        <DataTable
          caption={`Stored resources of ${connector.name}`}
          columns={COLUMNS}
          rows={rows.map((row): DataRow => ({
            id: row.id,
            label: `${row.name} (${row.uri})`,
            cells: {
              name: <ResourceCell row={row} warnings={resourceWarnings(row, siblings)} />,
              mimeType: row.mimeType && <Badge>{row.mimeType}</Badge>,
              actions: (
                <span className="flex justify-end gap-1">
                  <ResourceDialog connectorId={connector.id} siblings={siblings} resource={row} />
                  <DeleteResourceButton resource={row} />
                </span>
              ),
            },
          }))}
          nextCursor={page.nextCursor}
          searchLabel="Search resources by name or URI"
          bulk={{ verb: "Delete", noun: "stored resource", endpoint: "/api/v1/resources/bulk-delete", warning: "MCP clients stop seeing them on every server of this connector." }}
        />
      )}
    </section>
  );
}
