import type { Metadata } from "next";
import Link from "next/link";
import { Plug, Plus } from "lucide-react";
import { PageHeader } from "@/components/ui/page-header";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Pagination } from "@/components/ui/pagination";
import { Table, TBody, TD, TH, THead } from "@/components/ui/table";
import { cursorParam, requireOrgAdmin } from "@/app/(admin)/_lib/context";
import { listConnectors } from "@/lib/connectors/connectors";
import { HealthBadge } from "@/components/connectors/health-badge";
import { orgConnectorHealth } from "@/lib/connector-health/connector-health";

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

export default async function ConnectorsPage({ params, searchParams }: Props) {
  const { org, caller } = await requireOrgAdmin((await params).orgId);
  const cursor = cursorParam((await searchParams).cursor);
  const page = await listConnectors(caller, org.id, { cursor, limit: 50 });
  const health = await orgConnectorHealth(org.id, page.items.map((c) => c.id));
  return (
    <div className="mx-auto grid max-w-5xl gap-6">
      <PageHeader
        title="Connectors"
        description="Each connector brings tools from an HTTP API or an upstream MCP server. Assign connectors to MCP servers to publish their tools."
        actions={<NewButtons orgId={org.id} />}
      />
      {page.items.length === 0 && !cursor ? (
        <EmptyState icon={Plug} title="No connectors yet" action={<div className="flex flex-wrap justify-center gap-2"><NewButtons orgId={org.id} /></div>}>
          Describe an HTTP API (by hand or by importing an OpenAPI 3 document), or point at an upstream MCP server and its tools are discovered.
        </EmptyState>
      ) : (
        <div>
          <Table>
            <caption className="sr-only">Connectors of {org.name}</caption>
            <THead>
              <tr>
                <TH>Name</TH>
                <TH>Type</TH>
                <TH>Health</TH>
                <TH>Endpoint</TH>
                <TH className="text-right">Tools</TH>
              </tr>
            </THead>
            <TBody>
              {page.items.map((c) => (
                <tr key={c.id}>
                  <TD>
                    <Link href={`/orgs/${org.id}/connectors/${c.id}`} className="font-medium underline-offset-2 hover:underline">
                      {c.name}
                    </Link>
                    <span className="block font-mono text-xs text-zinc-500 dark:text-zinc-400">{c.slug}</span>
                  </TD>
                  <TD>
                    <Badge tone={c.type === "mcp" ? "info" : "neutral"}>{c.type === "mcp" ? "MCP" : "HTTP"}</Badge>
                    {c.protocolVersion && <span className="ml-2 font-mono text-xs text-zinc-500 dark:text-zinc-400">{c.protocolVersion}</span>}
                  </TD>
                  <TD>
                    <Link href={`/orgs/${org.id}/connectors/${c.id}/health`} className="rounded-full" aria-label={`${c.name} health: ${health.get(c.id)?.status ?? "unknown"}`}>
                      <HealthBadge health={health.get(c.id) ?? { status: "unknown", lastFailureMessage: null }} />
                    </Link>
                  </TD>
                  <TD className="max-w-72 truncate font-mono text-xs">{c.config.baseUrl ?? c.config.url}</TD>
                  <TD className="text-right tabular-nums">{c.tools.length}</TD>
                </tr>
              ))}
            </TBody>
          </Table>
          <Pagination basePath={`/orgs/${org.id}/connectors`} nextCursor={page.nextCursor} isFirstPage={!cursor} />
        </div>
      )}
    </div>
  );
}
