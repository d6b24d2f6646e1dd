import { z } from "zod";
import { HttpToolInput } from "@/lib/connectors/schemas";
import { MAX_OPENAPI_BYTES } from "@/lib/connectors/import-openapi";

/** The JSON shapes of `POST /orgs/{orgId}/connectors/import-openapi` (lib/connectors/import-openapi.ts). */

export const ImportOpenApiBody = z
  .object({
    document: z.string().max(MAX_OPENAPI_BYTES).meta({ description: "An OpenAPI 3.0/3.1 document, JSON or YAML, as text. External `$ref`s are never fetched." }),
  })
  .meta({ id: "ImportOpenApi" });
export type ImportOpenApiBody = z.infer<typeof ImportOpenApiBody>;

const Method = z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]);

export const OpenApiImportResult = z
  .object({
    title: z.string().nullable().meta({ description: "info.title: a name for the connector." }),
    version: z.string().nullable(),
    openapiVersion: z.string(),
    baseUrl: z.string().nullable().meta({ description: "The first server's absolute http(s) URL, its variables filled in." }),
    operations: z.array(
      z.object({
        key: z.string().meta({ description: "`METHOD /path`, unique in the document." }),
        method: Method,
        path: z.string(),
        summary: z.string().nullable(),
        tags: z.array(z.string()),
        deprecated: z.boolean(),
        tool: HttpToolInput.meta({ description: "Ready for the connector's `tools`." }),
        warnings: z.array(z.string()),
      }),
    ),
    secretHeaders: z.array(z.object({ name: z.string(), placeholder: z.string(), scheme: z.string() })).meta({ description: "From components.securitySchemes: the secret headers to fill in." }),
    skipped: z.array(z.object({ key: z.string(), reason: z.string() })),
    warnings: z.array(z.string()),
  })
  .meta({ id: "OpenApiImport" });
