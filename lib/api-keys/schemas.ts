import { z } from "zod";
import { listQuery } from "@/lib/api/list-query";
import { Id, Name } from "@/lib/schemas/common";

export const CreateApiKeyBody = z
  .object({
    name: Name,
    userId: Id.optional().meta({ description: "Whose key it is; default the caller. Required with the instance credential." }),
    serverId: Id.nullable().optional().meta({ description: "Pin the key to one MCP server of the workspace." }),
    expiresAt: z.iso
      .datetime({ offset: true })
      .refine((value) => Date.parse(value) > Date.now(), "Must be in the future.")
      .nullable()
      .optional()
      .meta({ description: "When the key stops working; default never. A key issued with an expiring API key expires no later than that key (by default, with it)." }),
  })
  .meta({ id: "CreateApiKey" });
export type CreateApiKeyBody = z.infer<typeof CreateApiKeyBody>;

const apiKeyFields = {
  id: z.string(),
  prefix: z.string().meta({ description: "The key's first characters, to recognize it." }),
  name: z.string(),
  workspaceId: z.string(),
  userId: z.string(),
  serverId: z.string().nullable(),
  expiresAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  createdBy: z
    .object({ id: z.string(), email: z.string(), name: z.string().nullable() })
    .nullable()
    .meta({ description: "Who issued the key, when a person did (an admin may issue keys in a member's name); null for the instance credential and for keys older than this field." }),
};

export const ApiKey = z
  .object({ ...apiKeyFields, revokedAt: z.iso.datetime().nullable(), lastUsedAt: z.iso.datetime().nullable() })
  .meta({ id: "ApiKey" });

export const CreatedApiKey = z
  .object({ ...apiKeyFields, key: z.string().meta({ description: "The secret (sb_…). Shown only in this answer; store it now." }) })
  .meta({ id: "CreatedApiKey" });

/** List parameters of API keys. */
export const ApiKeyListQuery = listQuery(["name", "prefix", "createdAt"], "key names and prefixes");
export type ApiKeyListQuery = z.infer<typeof ApiKeyListQuery>;
