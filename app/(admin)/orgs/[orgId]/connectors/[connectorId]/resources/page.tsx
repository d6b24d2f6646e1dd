import type { Metadata } from "next";
import { FileText } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { Pagination } from "@/components/ui/pagination";
import { cursorParam } from "@/app/(admin)/_lib/context";
import { resourceWarnings } from "@/components/connectors/resource-warnings";
import { listStoredResources } from "@/lib/resources/stored-resources";
import { type ConnectorParams, loadConnector } from "@/app/(admin)/orgs/[orgId]/connectors/[connectorId]/load";
import { DeleteResourceButton, ResourceDialog, type ResourceRow } from "@/app/(admin)/orgs/[orgId]/connectors/[connectorId]/resources/resource-dialog";

export const metadata: Metadata = { title: "Stored resources" };

type Props = { params: ConnectorParams; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function StoredResourcesPage({ params, searchParams }: Props) {
  const { orgId, connectorId } = await params;
  const { connector, caller } = await loadConnector(orgId, connectorId);
  const cursor = cursorParam((await searchParams).cursor);
  const page = await listStoredResources(caller, connector.id, { cursor, limit: 50 });
  const rows: ResourceRow[] = page.items.map((r) => ({
    id: r.id,
    uri: r.uri,
    name: r.name,
    description: r.description,
    mimeType: r.mimeType,
    fetchConfig: (r.fetchConfig ?? null) as Record<string, unknown> | null,
  }));
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
        <ResourceDialog connectorId={connector.id} siblings={rows} />
      </div>
      {rows.length === 0 && !cursor ? (
        <EmptyState icon={FileText} title="No stored resources">
          Add setup notes, a schema description or any other static text as a resource with its own URI (e.g. <code className="font-mono">crm://schema</code>).
        </EmptyState>
      ) : (
        <ul className="grid gap-2">
          {rows.map((row) => {
            const warnings = resourceWarnings(row, rows);
            return (
              <li key={row.id} className="rounded-lg border border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-900">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-medium">{row.name}</span>
                  <code className="font-mono text-xs break-all">{row.uri}</code>
                  {row.mimeType && <Badge>{row.mimeType}</Badge>}
                  <span className="ml-auto flex gap-1">
                    <ResourceDialog connectorId={connector.id} siblings={rows} resource={row} />
                    <DeleteResourceButton resource={row} />
                  </span>
                </div>
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
              </li>
            );
          })}
        </ul>
      )}
      <Pagination basePath={`/orgs/${orgId}/connectors/${connector.id}/resources`} nextCursor={page.nextCursor} isFirstPage={!cursor} />
    </section>
  );
}
