import type { ReactNode } from "react";
import Link from "next/link";
import { ChevronLeft } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { plural } from "@/components/ui/plural";
import { SubNav } from "@/components/admin/sub-nav";
import { HealthBadge } from "@/components/connectors/health-badge";
import { getConnectorHealth } from "@/lib/connector-health/connector-health";
import { type ConnectorParams, loadConnector } from "@/app/(admin)/orgs/[orgId]/connectors/[connectorId]/load";

/** Header and section links shared by a connector's pages. */
export default async function ConnectorLayout({ children, params }: { children: ReactNode; params: ConnectorParams }) {
  const { orgId, connectorId } = await params;
  const { connector, caller } = await loadConnector(orgId, connectorId);
  const health = await getConnectorHealth(caller, connector.id);
  const base = `/orgs/${orgId}/connectors/${connector.id}`;
  // Every page of the connector says what waits for approval (issue 26 point 2), linking to the diff.
  const waiting = connector.tools.filter((t) => t.approval).length;
  return (
    <div className="mx-auto grid max-w-5xl gap-6">
      <div className="grid gap-2">
        <Link href={`/orgs/${orgId}/connectors`} className="inline-flex w-fit items-center gap-1 text-sm text-zinc-600 underline-offset-2 hover:underline dark:text-zinc-400">
          <ChevronLeft aria-hidden className="size-4" />
          Connectors
        </Link>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold tracking-tight">{connector.name}</h1>
          <Badge tone={connector.type === "mcp" ? "info" : "neutral"}>{connector.type === "mcp" ? "MCP" : "HTTP"}</Badge>
          <span className="font-mono text-sm text-zinc-500 dark:text-zinc-400">{connector.slug}</span>
          <Link href={`${base}/health`} className="rounded-full" aria-label={`Health: ${health.status}`}>
            <HealthBadge health={health} />
          </Link>
          {waiting > 0 && (
            <Link href={`${base}/tools#approval-heading`} className="rounded-full">
              <Badge tone="warning">{`${plural(waiting, "tool")} ${waiting === 1 ? "waits" : "wait"} for approval`}</Badge>
            </Link>
          )}
        </div>
        <p className="font-mono text-sm break-all text-zinc-600 dark:text-zinc-400">{connector.config.baseUrl ?? connector.config.url}</p>
      </div>
      <SubNav
        label={`${connector.name} sections`}
        items={[
          { href: base, label: "Settings", exact: true },
          { href: `${base}/tools`, label: `Tools (${connector.tools.length})` },
          { href: `${base}/health`, label: "Health" },
          { href: `${base}/instructions`, label: "Instructions" },
          { href: `${base}/resources`, label: "Stored resources" },
          { href: `/orgs/${orgId}/graph?connector=${connector.id}`, label: "Knowledge graph" },
        ]}
      />
      {children}
    </div>
  );
}
