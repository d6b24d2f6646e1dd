import type { Caller } from "@/lib/auth/caller";
import { db } from "@/lib/db/client";
import { assertOrgManaged } from "@/lib/connectors/managed-connector";
import { orgsManagedBy } from "@/lib/tenancy/scopes";
import { buildKnowledgeGraph, type KnowledgeGraph } from "@/lib/knowledge-graph/derive-static-graph";
import { exposedToolNames } from "@/lib/mcp/surface/tool-names";
import type { SnapshotConnector } from "@/lib/mcp/visibility/snapshot-types";

/**
 * The knowledge graph of every connector of an organization, for its admins (the admin UI's
 * graph picture): the same derivation and manual overlay as a server's knowledge-graph
 * resource (buildKnowledgeGraph), over the org's connectors in creation order, as if all of
 * them were assigned to one server. Also returns each connector's own manual layer, for editing.
 */

export interface OrgKnowledgeGraph {
  graph: KnowledgeGraph;
  connectors: {
    id: string;
    name: string;
    manual: {
      entities: { key: string; label: string; description: string | null }[];
      relations: { from: string; to: string; kind: string; description: string | null }[];
    };
  }[];
}

const MAX_CONNECTORS = 500;

export async function orgKnowledgeGraph(caller: Caller, orgId: string): Promise<OrgKnowledgeGraph> {
  await assertOrgManaged(db(), caller, orgId);
  const rows = await db().connector.findMany({
    where: { orgId, org: orgsManagedBy(caller) },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: MAX_CONNECTORS,
    select: {
      id: true, orgId: true, slug: true, name: true, type: true, instructions: true, config: true,
      tools: { orderBy: [{ position: "asc" }, { name: "asc" }], select: { name: true, description: true, inputSchema: true, request: true } },
      graphEntities: { orderBy: { key: "asc" }, select: { key: true, label: true, description: true } },
      graphRelations: { orderBy: { id: "asc" }, select: { fromKey: true, toKey: true, kind: true, description: true } },
    },
  });
  const names = exposedToolNames(rows.flatMap((c) => c.tools.map((t) => ({ connectorSlug: c.slug, name: t.name }))));
  let i = 0;
  const connectors: SnapshotConnector[] = rows.map((c) => ({
    id: c.id,
    orgId: c.orgId,
    slug: c.slug,
    name: c.name,
    type: c.type,
    instructions: c.instructions,
    config: {},
    tools: c.tools.map((t) => ({
      connectorId: c.id,
      name: t.name,
      exposedName: names[i++],
      title: null,
      description: t.description,
      inputSchema: (t.inputSchema ?? { type: "object" }) as Record<string, unknown>,
      request: null,
      // The graph reads names and schemas only.
      curatedName: t.name, outputSchema: null, annotations: null, icons: null, execution: null, meta: null, select: null,
    })),
    prompts: [],
    upstream: { resources: [], resourceTemplates: [], subscribe: false, completions: false },
    storedResources: [],
    graph: { entities: c.graphEntities, relations: c.graphRelations },
  }));
  return {
    graph: buildKnowledgeGraph(connectors),
    connectors: rows.map((c) => ({
      id: c.id,
      name: c.name,
      manual: { entities: c.graphEntities, relations: c.graphRelations.map((r) => ({ from: r.fromKey, to: r.toKey, kind: r.kind, description: r.description })) },
    })),
  };
}
