import type { Metadata } from "next";
import Link from "next/link";
import { Network } from "lucide-react";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Button } from "@/components/ui/button";
import { GraphExplorer } from "@/components/graph/graph-explorer";
import { requireOrgAdmin } from "@/app/(admin)/_lib/context";
import { orgKnowledgeGraph } from "@/lib/knowledge-graph/org-graph";
import { getManualGraph } from "@/lib/knowledge-graph/manual-graph";
import { etagOf } from "@/lib/api/if-match";
import { ManualLayerEditor } from "@/app/(admin)/orgs/[orgId]/graph/manual-layer-editor";
import { ConnectorChooser } from "@/app/(admin)/orgs/[orgId]/graph/connector-chooser";

export const metadata: Metadata = { title: "Knowledge graph" };

type Props = { params: Promise<{ orgId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function GraphPage({ params, searchParams }: Props) {
  const { org, caller } = await requireOrgAdmin((await params).orgId);
  const wanted = (await searchParams).connector;
  const { graph, connectors } = await orgKnowledgeGraph(caller, org.id);
  const editing = connectors.find((c) => c.id === wanted) ?? connectors[0];
  if (connectors.length === 0) {
    return (
      <div className="mx-auto grid max-w-5xl gap-6">
        <PageHeader title="Knowledge graph" />
        <EmptyState icon={Network} title="No connectors, no graph" action={<Button asChild><Link href={`/orgs/${org.id}/connectors`}>Add a connector</Link></Button>}>
          Entities are derived from the tools of your connectors (e.g. get_customer → Customer); you can add your own on top.
        </EmptyState>
      </div>
    );
  }
  // The edited layer as the API answers it, so the version the form saves against is its ETag.
  const manual = await getManualGraph(caller, editing.id);
  return (
    <div className="mx-auto grid max-w-6xl gap-6">
      <PageHeader
        title="Knowledge graph"
        description="Entities and relations derived from the connectors' tools, with the manual layer you write on top. Workspaces that enable the knowledge graph publish the part each caller can use as a resource."
      />
      <GraphExplorer graph={graph} connectors={connectors.map((c) => ({ id: c.id, name: c.name }))} />
      <Card aria-labelledby="manual-title">
        <CardHeader>
          <CardTitle id="manual-title">Manual layer</CardTitle>
          <CardDescription>A manual entity replaces a derived one with the same key; relations may point at entities of either layer.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <ConnectorChooser orgId={org.id} connectors={connectors.map((c) => ({ id: c.id, name: c.name }))} value={editing.id} />
          <ManualLayerEditor
            key={editing.id}
            connector={{ id: editing.id, name: editing.name }}
            manual={manual}
            version={etagOf(manual)}
            knownKeys={graph.entities.map((e) => e.key)}
          />
        </CardContent>
      </Card>
    </div>
  );
}
