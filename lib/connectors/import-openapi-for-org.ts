import { db } from "@/lib/db/client";
import type { Caller } from "@/lib/auth/caller";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { orgsManagedBy } from "@/lib/tenancy/scopes";
import { type OpenApiImport, OpenApiImportError, importOpenApi } from "@/lib/connectors/import-openapi";
import type { ImportOpenApiBody } from "@/lib/connectors/openapi-import-schemas";
import { assertCredentialMay } from "@/lib/permissions/guards";

/**
 * `POST /orgs/{orgId}/connectors/import-openapi`, and the console's import dialog through the
 * same call: reads a document into candidate tools for an organization the caller manages
 * (whoever may create its connectors). Stores nothing; the tools are saved with the connector.
 * A document that cannot be imported is a 422 on `document`, with the reason in plain words.
 */
export async function importOpenApiForOrg(caller: Caller, orgId: string, body: ImportOpenApiBody): Promise<OpenApiImport> {
  assertCredentialMay(caller, "connectors.manage");
  const org = await db().organization.findFirst({ where: { id: orgId, AND: [orgsManagedBy(caller)] }, select: { id: true } });
  if (!org) throw new NotFoundError("organization");
  try {
    return await importOpenApi(body.document);
  } catch (e) {
    if (e instanceof OpenApiImportError) throw new ValidationError([{ path: "document", message: e.message }], e.message);
    throw e;
  }
}
