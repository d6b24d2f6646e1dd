"use server";

import { runVersionedAction } from "@/app/(admin)/_lib/run-action";
import { Id } from "@/lib/schemas/common";
import { putManualGraph } from "@/lib/knowledge-graph/manual-graph";
import { PutManualGraphBody } from "@/lib/knowledge-graph/schemas";

/** Replaces a connector's whole manual layer (PUT semantics). */
export async function putManualGraphAction(connectorId: string, input: unknown, version?: string) {
  return runVersionedAction(version, (caller, ifMatch) => putManualGraph(caller, Id.parse(connectorId), PutManualGraphBody.parse(input), ifMatch));
}
