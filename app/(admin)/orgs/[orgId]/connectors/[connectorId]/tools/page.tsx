import type { Metadata } from "next";
import Link from "next/link";
import { Wrench } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { type ConnectorParams, loadConnector } from "@/app/(admin)/orgs/[orgId]/connectors/[connectorId]/load";
import { HttpToolsForm } from "@/app/(admin)/orgs/[orgId]/connectors/[connectorId]/tools/http-tools-form";
import { ReloadToolsButton } from "@/app/(admin)/orgs/[orgId]/connectors/[connectorId]/tools/reload-button";
import { toolToDraft } from "@/components/connectors/connector-form-model";
import { etagOf } from "@/lib/api/if-match";
import { plural } from "@/components/ui/plural";

export const metadata: Metadata = { title: "Connector tools" };

export default async function ConnectorToolsPage({ params }: { params: ConnectorParams }) {
  const { orgId, connectorId } = await params;
  const { connector } = await loadConnector(orgId, connectorId);
  const tryHint = (
    <p className="text-sm text-zinc-600 dark:text-zinc-400">
      To call these tools for real, assign the connector to an MCP server and use <Link className="underline" href="/servers">Try a tool</Link> on the server&apos;s page.
    </p>
  );
  if (connector.type === "http") {
    return (
      <div className="grid gap-3">
        {tryHint}
        <HttpToolsForm orgId={orgId} connectorId={connector.id} tools={connector.tools.map(toolToDraft)} version={etagOf(connector)} />
      </div>
    );
  }
  return (
    <section aria-labelledby="discovered-heading" className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="discovered-heading" className="text-lg font-semibold">
            Discovered tools <span className="text-sm font-normal text-zinc-500 dark:text-zinc-400">({connector.tools.length})</span>
          </h2>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            Negotiated protocol version: <span className="font-mono">{connector.protocolVersion ?? "unknown"}</span> · last change{" "}
            {connector.updatedAt.toISOString().replace("T", " ").slice(0, 16)} UTC
          </p>
        </div>
        <ReloadToolsButton connectorId={connector.id} />
      </div>
      {tryHint}
      {connector.tools.length === 0 ? (
        <EmptyState icon={Wrench} title="The upstream offers no tools">
          Add tools to the upstream MCP server, then reload.
        </EmptyState>
      ) : (
        <ul className="grid gap-2">
          {connector.tools.map((tool) => (
            <li key={tool.name} className="rounded-lg border border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-900">
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-mono font-medium">{tool.name}</span>
                {tool.title && <span className="font-medium">{tool.title}</span>}
                <Badge>{plural(Object.keys((tool.inputSchema.properties as object | undefined) ?? {}).length, "argument")}</Badge>
              </div>
              {tool.description && <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{tool.description}</p>}
              <details className="mt-2 text-sm">
                <summary className="cursor-pointer">Input schema</summary>
                <pre tabIndex={0} className="mt-2 overflow-x-auto rounded-md [contain:inline-size] bg-zinc-50 p-3 font-mono text-xs dark:bg-zinc-950">
                  {JSON.stringify(tool.inputSchema, null, 2)}
                </pre>
              </details>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
