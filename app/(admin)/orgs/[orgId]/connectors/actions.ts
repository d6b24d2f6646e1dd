"use server";

import { runAction, runVersionedAction } from "@/app/(admin)/_lib/run-action";
import { Id } from "@/lib/schemas/common";
import { createConnector } from "@/lib/connectors/create-connector";
import { deleteConnector, updateConnector } from "@/lib/connectors/connectors";
import { reloadConnector } from "@/lib/connectors/reload-connector";
import { approveTool } from "@/lib/connectors/approve-tool";
import { CreateConnectorBody, ToolName, UpdateConnectorBody } from "@/lib/connectors/schemas";
import { importOpenApiForOrg } from "@/lib/connectors/import-openapi-for-org";
import { ImportOpenApiBody } from "@/lib/connectors/openapi-import-schemas";

export async function createConnectorAction(orgId: string, input: unknown) {
  return runAction((caller) => createConnector(caller, Id.parse(orgId), CreateConnectorBody.parse(input)));
}

export async function updateConnectorAction(connectorId: string, input: unknown, version?: string) {
  return runVersionedAction(version, (caller, ifMatch) => updateConnector(caller, Id.parse(connectorId), UpdateConnectorBody.parse(input), ifMatch));
}

export async function deleteConnectorAction(connectorId: string, version?: string) {
  return runVersionedAction(
    version,
    async (caller, ifMatch) => {
      await deleteConnector(caller, Id.parse(connectorId), ifMatch);
      return null;
    },
    { revalidate: false },
  );
}

/** Re-discovers an mcp connector's tools from its upstream. */
export async function reloadConnectorAction(connectorId: string) {
  return runAction((caller) => reloadConnector(caller, Id.parse(connectorId)));
}

/** Approves a tool's changed or new upstream definition (issue 26 point 2). */
export async function approveToolAction(connectorId: string, tool: unknown) {
  return runAction((caller) => approveTool(caller, Id.parse(connectorId), ToolName.parse(tool)));
}

/** Reads an OpenAPI 3 document (pasted or uploaded) into candidate tools; stores nothing. */
export async function importOpenApiAction(orgId: string, text: unknown) {
  return runAction((caller) => importOpenApiForOrg(caller, Id.parse(orgId), ImportOpenApiBody.parse({ document: text })), { revalidate: false });
}
