import { z } from "zod";
import { endpoint } from "@/lib/api/endpoint";
import { Id } from "@/lib/schemas/common";
import { ManualGraph, PutManualGraphBody } from "@/lib/knowledge-graph/schemas";

const tag = "Knowledge graph";
const connectorParams = z.object({ connectorId: Id });

export const knowledgeGraphEndpoints = {
  getManualGraph: endpoint({ operationId: "getManualGraph", etag: true, method: "GET", path: "/connectors/{connectorId}/graph", tag, summary: "Get the manual layer of a connector's knowledge graph", params: connectorParams, response: ManualGraph }),
  putManualGraph: endpoint({
    operationId: "setManualGraph",
    etag: true,
    method: "PUT",
    path: "/connectors/{connectorId}/graph",
    tag,
    summary: "Replace the manual layer of a connector's knowledge graph",
    params: connectorParams,
    body: PutManualGraphBody,
    response: ManualGraph,
  }),
};
