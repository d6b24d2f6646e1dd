"use server";

import { runAction, runVersionedAction } from "@/app/(admin)/_lib/run-action";
import { ValidationError } from "@/lib/errors";
import { Id } from "@/lib/schemas/common";
import { createConnector } from "@/lib/connectors/create-connector";
import { deleteConnector, updateConnector } from "@/lib/connectors/connectors";
import { reloadConnector } from "@/lib/connectors/reload-connector";
import { CreateConnectorBody, UpdateConnectorBody } from "@/lib/connectors/schemas";
import { OpenApiImportError, importOpenApi } from "@/lib/connectors/import-openapi";

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

/** Reads an OpenAPI 3 document (pasted or uploaded) into candidate tools; stores nothing. */
export async function importOpenApiAction(text: unknown) {
  return runAction(
    async () => {
      try {
        return await importOpenApi(typeof text === "string" ? text : "");
      } catch (e) {
        if (e instanceof OpenApiImportError) throw new ValidationError([{ path: "document", message: e.message }], e.message);
        throw e;
      }
    },
    { revalidate: false },
  );
}
