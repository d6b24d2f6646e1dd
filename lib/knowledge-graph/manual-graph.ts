import type { Prisma } from "@/lib/generated/prisma/client";
import type { Caller } from "@/lib/auth/caller";
import { db } from "@/lib/db/client";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import * as configVersion from "@/lib/config-version/config-version";
import { findManagedConnector, lockManagedConnector } from "@/lib/connectors/managed-connector";
import { assertIfMatch, type IfMatch } from "@/lib/api/if-match";
import type { PutManualGraphBody } from "@/lib/knowledge-graph/schemas";
import { queueRowWrite } from "@/lib/db/queue-row-writes";
import { assertCredentialMay } from "@/lib/permissions/guards";

/** The manual layer of a connector's knowledge graph: entities and relations an admin wrote. */

export interface ManualGraphView {
  connectorId: string;
  entities: { key: string; label: string; description: string | null }[];
  relations: { from: string; to: string; kind: string; description: string | null }[];
}

type GraphClient = Pick<Prisma.TransactionClient, "graphEntity" | "graphRelation">;

async function readManualGraph(client: GraphClient, { id: connectorId, orgId }: { id: string; orgId: string }): Promise<ManualGraphView> {
  const entities = await client.graphEntity.findMany({ where: { connectorId, orgId }, orderBy: [{ key: "asc" }], select: { key: true, label: true, description: true } });
  const relations = await client.graphRelation.findMany({
    where: { connectorId, orgId },
    orderBy: [{ fromKey: "asc" }, { toKey: "asc" }, { kind: "asc" }, { id: "asc" }],
    select: { fromKey: true, toKey: true, kind: true, description: true },
  });
  return { connectorId, entities, relations: relations.map((r) => ({ from: r.fromKey, to: r.toKey, kind: r.kind, description: r.description })) };
}

/** The manual layer of a connector the caller manages. */
export async function getManualGraph(caller: Caller, connectorId: string): Promise<ManualGraphView> {
  return db().$transaction(async (tx) => {
    const connector = await findManagedConnector(tx, caller, connectorId);
    return readManualGraph(tx, connector);
  });
}

/**
 * Replaces the whole manual layer of a connector in one transaction, under the connector's row
 * lock: two replacements at once leave one submitted layer, never a mix of both.
 */
export async function putManualGraph(caller: Caller, connectorId: string, input: PutManualGraphBody, ifMatch?: IfMatch): Promise<ManualGraphView> {
  assertCredentialMay(caller, "connectors.manage");
  return queueRowWrite("connectors", connectorId, () =>
    db().$transaction(async (tx) => {
      const { id, orgId } = await lockManagedConnector(tx, caller, connectorId);
      assertIfMatch(ifMatch, await readManualGraph(tx, { id, orgId }));
      await tx.graphRelation.deleteMany({ where: { connectorId: id, orgId } });
      await tx.graphEntity.deleteMany({ where: { connectorId: id, orgId } });
      await tx.graphEntity.createMany({
        data: input.entities.map((e) => ({ orgId, connectorId: id, key: e.key, label: e.label, description: e.description ?? null })),
      });
      await tx.graphRelation.createMany({
        data: input.relations.map((r) => ({ orgId, connectorId: id, fromKey: r.from, toKey: r.to, kind: r.kind, description: r.description ?? null })),
      });
      await configVersion.bump(tx, orgId);
      await recordAuditEvent(
        caller,
        { orgId, action: "graph.replace", targetType: "connector", targetId: id, data: { entityCount: input.entities.length, relationCount: input.relations.length } },
        tx,
      );
      return readManualGraph(tx, { id, orgId });
    }),
  );
}
