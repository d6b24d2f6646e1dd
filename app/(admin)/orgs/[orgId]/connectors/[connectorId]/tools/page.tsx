import type { Metadata } from "next";
import Link from "next/link";
import { Wrench } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";
import { type ConnectorParams, loadConnector } from "@/app/(admin)/orgs/[orgId]/connectors/[connectorId]/load";
import { HttpToolsForm } from "@/app/(admin)/orgs/[orgId]/connectors/[connectorId]/tools/http-tools-form";
import { ReloadToolsButton } from "@/app/(admin)/orgs/[orgId]/connectors/[connectorId]/tools/reload-button";
import { ApproveTools } from "@/app/(admin)/orgs/[orgId]/connectors/[connectorId]/tools/approve-tools";
import { readListParams } from "@/app/(admin)/_lib/list-params";
import { toolToDraft } from "@/components/connectors/connector-form-model";
import { ToolTable } from "@/components/connectors/tool-table";
import { etagOf } from "@/lib/api/if-match";
import { pageLoadedTools } from "@/lib/connectors/page-loaded-tools";
import { ToolListQuery } from "@/lib/connectors/schemas";
import { plural } from "@/components/ui/plural";

export const metadata: Metadata = { title: "Connector tools" };

type Props = { params: ConnectorParams; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ConnectorToolsPage({ params, searchParams }: Props) {
  const { orgId, connectorId } = await params;
  const { connector, tools } = await loadConnector(orgId, connectorId);
  // One read for both: the editor gets the whole set, the table one page of the same rows.
  const page = pageLoadedTools(tools, readListParams(ToolListQuery, await searchParams));
  const count = connector.tools.length;
  const tryHint = (
    <p className="text-sm text-zinc-600 dark:text-zinc-400">
      To call these tools for real, assign the connector to an MCP server and use <Link className="underline" href="/servers">Try a tool</Link> on the server&apos;s page.
    </p>
  );
  const list = count > 0 && <ToolTable tools={page.items} nextCursor={page.nextCursor} connector={connector} />;
  if (connector.type === "http") {
    const version = etagOf(connector);
    return (
      <div className="grid gap-6">
        {tryHint}
        {list && (
          <section aria-labelledby="tool-list-heading" className="grid gap-3">
            <h2 id="tool-list-heading" className="text-lg font-semibold">
              Tools <span className="text-sm font-normal text-zinc-500 dark:text-zinc-400">({plural(count, "tool")})</span>
            </h2>
            {list}
          </section>
        )}
        <section aria-labelledby="tool-editor-heading" className="grid gap-3">
          <h2 id="tool-editor-heading" className="text-lg font-semibold">
            Edit tools
          </h2>
          {/* Keyed by the version: after a bulk delete the editor starts again from the stored set. */}
          <HttpToolsForm key={version} orgId={orgId} connectorId={connector.id} tools={connector.tools.map(toolToDraft)} version={version} />
        </section>
      </div>
    );
  }
  return (
    <section aria-labelledby="discovered-heading" className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="discovered-heading" className="text-lg font-semibold">
            Discovered tools <span className="text-sm font-normal text-zinc-500 dark:text-zinc-400">({count})</span>
          </h2>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            Negotiated protocol version: <span className="font-mono">{connector.protocolVersion ?? "unknown"}</span> · last change{" "}
            {connector.updatedAt.toISOString().replace("T", " ").slice(0, 16)} UTC
          </p>
          {connector.eraFallback && (
            <p role="status" className="mt-1 text-sm text-amber-800 dark:text-amber-300">
              Connected with <span className="font-mono">initialize</span> (2025-era): the upstream refused the 2026-07-28 protocol on{" "}
              {connector.eraFallback.at.replace("T", " ").slice(0, 16)} UTC — {connector.eraFallback.reason}. Changing the URL, the protocol era or the transport tries
              2026-07-28 again.
            </p>
          )}
        </div>
        <ReloadToolsButton connectorId={connector.id} />
      </div>
      <ApproveTools connectorId={connector.id} tools={connector.tools} />
      {tryHint}
      {list || (
        <EmptyState icon={Wrench} title="The upstream offers no tools">
          Add tools to the upstream MCP server, then reload.
        </EmptyState>
      )}
    </section>
  );
}
