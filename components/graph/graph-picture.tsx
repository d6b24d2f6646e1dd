"use client";

import "@xyflow/react/dist/style.css";
import { Background, Controls, type Edge, MarkerType, type Node, ReactFlow } from "@xyflow/react";
import { useMemo } from "react";
import type { GraphEdge, GraphEntityNode } from "@/lib/knowledge-graph/derive-static-graph";

const COLUMN = 260;
const ROW = 90;

/**
 * The picture: one column per connector (its entities stacked), relations as arrows labelled
 * with their kind; manual entities and relations drawn solid and blue, derived ones grey and
 * dashed. Pan, zoom and move nodes with mouse or keyboard (React Flow's controls). Dark mode
 * comes from app/globals.css, not from React Flow's colorMode prop (see there why).
 */
export function GraphPicture({ entities, relations, connectorOrder }: { entities: GraphEntityNode[]; relations: GraphEdge[]; connectorOrder: string[] }) {
  const { nodes, edges } = useMemo(() => {
    const rowOf = new Map<string, number>();
    const nodes: Node[] = entities.map((e) => {
      const column = Math.max(0, connectorOrder.indexOf(e.connectorId));
      const row = rowOf.get(e.connectorId) ?? 0;
      rowOf.set(e.connectorId, row + 1);
      const manual = e.source === "manual";
      return {
        id: e.key,
        position: { x: column * COLUMN, y: row * ROW },
        data: { label: e.label },
        ariaLabel: `${e.label} (${e.source}, ${e.connectorName})`,
        style: {
          borderColor: manual ? "#0284c7" : "#a1a1aa",
          borderWidth: manual ? 2 : 1,
          fontSize: 13,
        },
      };
    });
    const edges: Edge[] = relations.map((r) => ({
      id: `${r.from}→${r.to}:${r.kind}`,
      source: r.from,
      target: r.to,
      label: r.kind,
      markerEnd: { type: MarkerType.ArrowClosed },
      style: r.source === "manual" ? { stroke: "#0284c7", strokeWidth: 2 } : { strokeDasharray: "5 4" },
      ariaLabel: `${r.from} ${r.kind} ${r.to}`,
    }));
    return { nodes, edges };
  }, [entities, relations, connectorOrder]);
  return (
    <div className="h-[28rem] overflow-hidden rounded-lg border border-zinc-200 dark:border-zinc-800" role="figure" aria-label="Knowledge graph picture (the same content is listed below)">
      <ReactFlow nodes={nodes} edges={edges} fitView nodesConnectable={false} minZoom={0.2}>
        <Background />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}
