import type { Metadata } from "next";
import Link from "next/link";
import { Plug, Plus } from "lucide-react";
import { PageHeader } from "@/components/ui/page-header";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { type DataColumn, DataTable, type DataRow } from "@/components/lists/data-table";
import { requireOrgAdmin } from "@/app/(admin)/_lib/context";
import { readListParams } from "@/app/(admin)/_lib/list-params";
import { listConnectors } from "@/lib/connectors/connectors";
import { HealthBadge } from "@/components/connectors/health-badge";
import { orgConnectorHealth } from "@/lib/connector-health/connector-health";
import { ConnectorListQuery } from "@/lib/connectors/schemas";

export const metadata: Metadata = { title: "Connectors" };

type Props = { params: Promise<{ orgId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

function NewButtons({ orgId }: { orgId: string }) {
  return (
    <>
      <Button asChild>
        <Link href={`/orgs/${orgId}/connectors/new?type=http`}>
          <Plus aria-hidden />
          HTTP API
        </Link>
      </Button>
      <Button asChild variant="outline">
        <Link href={`/orgs/${orgId}/connectors/new?type=mcp`}>
          <Plus aria-hidden />
          Upstream MCP server
        </Link>
      </Button>
    </>
  );
}

const COLUMNS: DataColumn[] = [
  { id: "name", header: "Name", sortable: true },
  { id: "type", header: "Type", sortable: true },
  { id: "health", header: "Health" },
  { id: "endpoint", header: "Endpoint", wide: true, className: "max-w-72 truncate font-mono text-xs" },
  { id: "tools", header: "Tools", className: "text-right tabular-nums" },
];

export default async function ConnectorsPage({ params, searchParams }: Props) {
  const { org, caller } = await requireOrgAdmin((await params).orgId);
  const query = readListParams(ConnectorListQuery, await searchParams);
  const page = await listConnectors(caller, org.id, query);
  const health = await orgConnectorHealth(org.id, page.items.map((c) => c.id));
  const rows: DataRow[] = page.items.map((c) => ({
    id: c.id,
    label: c.name,
    cells: {
      name: (
        <>
          <Link href={`/orgs/${org.id}/connectors/${c.id}`} className="font-medium underline-offset-2 hover:underline">
            {c.name}
          </Link>
          <span className="block font-mono text-xs text-zinc-500 dark:text-zinc-400">{c.slug}</span>
        </>
      ),
      type: (
        <>
          <Badge tone={c.type === "mcp" ? "info" : "neutral"}>{c.type === "mcp" ? "MCP" : "HTTP"}</Badge>
          {c.protocolVersion && <span className="ml-2 font-mono text-xs text-zinc-500 dark:text-zinc-400">{c.protocolVersion}</span>}
        </>
      ),
      health: (
        <Link href={`/orgs/${org.id}/connectors/${c.id}/health`} className="rounded-full" aria-label={`${c.name} health: ${health.get(c.id)?.status ?? "unknown"}`}>
          <HealthBadge health={health.get(c.id) ?? { status: "unknown", lastFailureMessage: null }} />
        </Link>
      ),
      endpoint: c.config.baseUrl ?? c.config.url,
      tools: c.tools.length,
    },
  }));
  return (
    <div className="mx-auto grid max-w-5xl gap-6">
      <PageHeader
        title="Connectors"
        description="Each connector brings tools from an HTTP API or an upstream MCP server. Assign connectors to MCP servers to publish their tools."
        actions={<NewButtons orgId={org.id} />}
      />
      {page.items.length === 0 && !query.cursor && !query.q ? (
        <EmptyState icon={Plug} title="No connectors yet" action={<div className="flex flex-wrap justify-center gap-2"><NewButtons orgId={org.id} /></div>}>
          Describe an HTTP API (by hand or by importing an OpenAPI 3 document), or point at an upstream MCP server and its tools are discovered.
        </EmptyState>
      ) : (
        <DataTable
          caption={`Connectors of ${org.name}`}
          columns={COLUMNS}
          rows={rows}
          nextCursor={page.nextCursor}
          searchLabel="Search connectors"
          bulk={{ verb: "Delete", noun: "connector", endpoint: "/api/v1/connectors/bulk-delete", warning: "Their tools, stored resources and graph go with them, and every server stops offering those tools." }}
        />
      )}
    </div>
  );
}
