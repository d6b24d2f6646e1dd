import { z } from "zod";
import { listQuery } from "@/lib/api/list-query";
import { BoundedJsonObject, Name } from "@/lib/schemas/common";
import { isReservedUri, isValidResourceUri, plainMimeTypeOrNull } from "@/lib/resources/stored-resource-rules";

/** Request and answer shapes of stored resources (table `mcp_resources`). */

const ResourceUri = z
  .string()
  .max(2048)
  .superRefine((uri, ctx) => {
    if (isReservedUri(uri)) ctx.addIssue({ code: "custom", message: "The anythingmcp: scheme is reserved for resources the platform publishes itself." });
    else if (!isValidResourceUri(uri)) ctx.addIssue({ code: "custom", message: 'Must be an absolute URI with a scheme, e.g. "crm://schema".' });
  });

const MimeType = z
  .string()
  .max(255)
  .refine((m) => plainMimeTypeOrNull(m) !== null, 'Must be a plain media type "type/subtype", without parameters.')
  .transform((m) => plainMimeTypeOrNull(m) as string);

export const CreateStoredResourceBody = z
  .object({
    uri: ResourceUri,
    name: Name,
    description: z.string().max(20_000).nullable().optional(),
    mimeType: MimeType.nullable().optional(),
    fetchConfig: BoundedJsonObject.nullable()
      .optional()
      .meta({ description: "`text` (or `content`) is served as the resource's content; anything else is never fetched nor shown to MCP clients." }),
  })
  .meta({ id: "CreateStoredResource" });
export type CreateStoredResourceBody = z.infer<typeof CreateStoredResourceBody>;

/** Changes some fields of a stored resource; the same rules as on creation. */
export const UpdateStoredResourceBody = CreateStoredResourceBody.partial().meta({ id: "UpdateStoredResource" });
export type UpdateStoredResourceBody = z.infer<typeof UpdateStoredResourceBody>;

export const StoredResource = z
  .object({
    id: z.string(),
    connectorId: z.string(),
    uri: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    mimeType: z.string().nullable(),
    fetchConfig: z.record(z.string(), z.unknown()).nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "StoredResource" });

/** List parameters of a connector's stored resources. */
export const StoredResourceListQuery = listQuery(["name", "uri", "createdAt"], "names and URIs");
export type StoredResourceListQuery = z.infer<typeof StoredResourceListQuery>;
