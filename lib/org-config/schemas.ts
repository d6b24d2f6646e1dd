import { z } from "zod";
import { Markdown, Name, Slug } from "@/lib/schemas/common";
import { HttpToolInput, HttpUrl, ProtocolEra, ToolInputSchema, ToolName, UpstreamTransport } from "@/lib/connectors/schemas";
import { CreateStoredResourceBody } from "@/lib/resources/schemas";
import { plainMimeTypeOrNull } from "@/lib/resources/stored-resource-rules";
import { PutManualGraphBody } from "@/lib/knowledge-graph/schemas";
import { AuditRetentionDays, ToolAuditDetail } from "@/lib/orgs/schemas";
import { ClientCredentialsAuth, HeadersAuth, OAuthAuth } from "@/lib/connectors/upstream-auth/auth-schemas";
import { ToolOverrideItem } from "@/lib/servers/tool-override-schemas";

/**
 * An organization as one document (docs/configuration-as-code.md): what `GET …/config` answers
 * and `…/config/plan` and `…/config/apply` take. Objects are named by slug or name, never by id;
 * the parts reuse the schemas of the endpoints that write the same objects one at a time.
 */

export const SECRET_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_.-]{0,127}$/;
export const SecretName = z.string().regex(SECRET_NAME_PATTERN, "Use a letter or '_' then up to 127 letters, digits, '_', '.' or '-'.");
/** `${secret:NAME}`, anywhere inside a header value (e.g. `Bearer ${secret:CRM_TOKEN}`). */
export const SECRET_REFERENCE = /\$\{secret:([^}]*)\}/g;

/** A secret header's value: text around one or more secret references, never a secret itself. */
const SecretHeaderValue = z
  .string()
  .max(8192)
  .regex(/^[^\r\n\0]*$/, "Header values must not contain line breaks or NUL.")
  .superRefine((value, ctx) => {
    const names = [...value.matchAll(SECRET_REFERENCE)].map((m) => m[1]);
    if (names.length === 0) ctx.addIssue({ code: "custom", message: "A secret header's value must reference a secret as ${secret:NAME} (set it with PUT /orgs/{orgId}/secrets/{name}), never hold it." });
    for (const name of names) if (!SECRET_NAME_PATTERN.test(name)) ctx.addIssue({ code: "custom", message: `"${name}" is not a valid secret name.` });
  });
const SecretHeaderRefs = z.record(z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/, "Not a valid HTTP header name."), SecretHeaderValue);

/** A connector's client secret in a document: a `${secret:NAME}` reference, resolved on apply (write-only, like secret headers). */
const ClientSecretRef = SecretHeaderValue.meta({ description: "`${secret:NAME}`: the client secret is set apart with PUT /orgs/{orgId}/secrets/{name}, never written here. Left out: a stored one is kept." });

/** How the connector authenticates to its upstream, as the connector API answers it; the client secret as a reference. */
const ConfigAuth = z.discriminatedUnion("type", [HeadersAuth, OAuthAuth.extend({ clientSecret: ClientSecretRef.optional() }), ClientCredentialsAuth.extend({ clientSecret: ClientSecretRef.optional() })]);
export type ConfigAuth = z.infer<typeof ConfigAuth>;

/** A stored resource as POST …/resources takes it; its media type already in the plain form that endpoint stores. */
const Resource = CreateStoredResourceBody.extend({
  mimeType: z
    .string()
    .max(255)
    .refine((m) => plainMimeTypeOrNull(m) === m, 'Must be a plain lowercase media type "type/subtype", without parameters.')
    .nullable()
    .optional(),
});
const Graph = PutManualGraphBody;
const Instructions = Markdown.nullable().optional();

const connectorCommon = {
  slug: Slug,
  name: Name,
  instructions: Instructions,
  headers: SecretHeaderRefs.optional().meta({ description: "Secret request headers, each value with `${secret:NAME}` references." }),
  auth: ConfigAuth.optional().meta({ description: "How requests to the upstream authenticate (default `{ type: headers }`), as the connector API takes it; `clientSecret` as a `${secret:NAME}` reference." }),
  resources: z.array(Resource).max(5000).optional(),
  graph: Graph.optional().meta({ description: "The manual layer of the connector's knowledge graph." }),
};

/** What an mcp connector's upstream offered when exported: for review only, discovered again on apply. */
const DiscoveredTool = z.object({
  name: ToolName,
  title: z.string().nullable().optional(),
  description: z.string().optional(),
  inputSchema: ToolInputSchema.optional(),
});

export const ConfigConnector = z.discriminatedUnion("type", [
  z.object({ type: z.literal("http"), ...connectorCommon, baseUrl: HttpUrl, tools: z.array(HttpToolInput).max(2000).optional() }),
  z.object({
    type: z.literal("mcp"),
    ...connectorCommon,
    url: HttpUrl,
    protocolEra: ProtocolEra.optional(),
    transport: UpstreamTransport.optional(),
    toolApproval: z.boolean().optional().meta({ description: "A tool that appears or changes upstream waits for an admin's approval (default true, as for a connector created by the API)." }),
    tools: z.array(DiscoveredTool).max(2000).optional().meta({ description: "Exported for review; not applied (the upstream is discovered again after the apply commits)." }),
  }),
]);
export type ConfigConnector = z.infer<typeof ConfigConnector>;

/** A server's curation of one connector tool, as PUT /servers/{id}/tool-overrides takes it, the connector by slug. */
const ConfigToolOverride = ToolOverrideItem.omit({ connectorId: true }).extend({ connector: Slug.meta({ description: "The slug of one of the server's connectors." }) });

export const ConfigServer = z.object({
  name: Name,
  instructions: Instructions,
  connectors: z.array(Slug).max(200).optional().meta({ description: "Connector slugs, in the order the server lists them." }),
  tools: z
    .array(ConfigToolOverride)
    .max(2000)
    .optional()
    .meta({ description: "What this server tells the model about its connectors' tools: renames, titles, descriptions, annotations, hidden tools (GET /servers/{id}/tool-overrides). Left out: none." }),
});

export const ConfigSkill = z.object({
  name: Name,
  content: Markdown.min(1, "Must not be empty."),
  connector: Slug.nullable().optional().meta({ description: "The connector the skill is scoped to (null: the whole workspace)." }),
  applied: z.boolean().optional(),
});

export const ConfigWorkspace = z.object({
  slug: Slug,
  name: Name,
  knowledgeGraphEnabled: z.boolean().optional(),
  toolWhitelistsEnabled: z.boolean().optional(),
  servers: z.array(ConfigServer).max(1000).optional(),
  skills: z.array(ConfigSkill).max(1000).optional().meta({ description: "In the order the servers' instructions show them." }),
});

export const ConfigRole = z.object({
  name: Name,
  tools: z.array(z.object({ connector: Slug, tool: z.string().trim().min(1).max(200) })).max(2000).optional(),
  prompts: z.array(z.object({ connector: Slug, prompt: z.string().trim().min(1).max(200) })).max(2000).optional(),
});

export const ConfigSettings = z.object({ toolAuditDetail: ToolAuditDetail.optional(), auditRetentionDays: AuditRetentionDays.optional() });

export const OrgConfigDocument = z
  .object({
    version: z.literal(1).default(1),
    settings: ConfigSettings.optional(),
    workspaces: z.array(ConfigWorkspace).max(1000).optional(),
    connectors: z.array(ConfigConnector).max(1000).optional(),
    roles: z.array(ConfigRole).max(1000).optional(),
  })
  .strict()
  .meta({ id: "OrgConfigDocument", description: "An organization's configuration as one document (docs/configuration-as-code.md)." });
export type OrgConfigDocument = z.infer<typeof OrgConfigDocument>;

export const ConfigChange = z
  .object({
    action: z.enum(["create", "update", "delete"]),
    kind: z.enum(["settings", "workspace", "connector", "server", "skill", "role"]),
    name: z.string().meta({ description: "The object's slug or name; a server or skill as `<workspace slug>/<name>`." }),
    fields: z
      .array(
        z.object({
          path: z.string(),
          from: z.unknown(),
          to: z.unknown(),
          note: z.string().optional().meta({ description: "Why a field whose `from` and `to` read the same changes: a secret reference whose value is not the one applied." }),
        }),
      )
      .optional(),
  })
  .meta({ id: "ConfigChange" });
export type ConfigChange = z.infer<typeof ConfigChange>;

export const ConfigPlan = z.object({ changes: z.array(ConfigChange) }).meta({ id: "ConfigPlan" });

export const ConfigApplyResult = z
  .object({
    changes: z.array(ConfigChange),
    etag: z.string().meta({ description: "The ETag of the configuration after the apply." }),
    discovery: z
      .array(z.object({ connector: z.string(), ok: z.boolean(), error: z.string().optional() }))
      .meta({ description: "mcp connectors discovered again after the commit." }),
  })
  .meta({ id: "ConfigApplyResult" });

export const ConfigPlanQuery = z.object({
  prune: z
    .enum(["true", "false"])
    .default("false")
    .meta({ description: "Delete objects the document leaves out (default false: they stay)." }),
});

export const PutSecretBody = z.object({ value: z.string().min(1).max(8192).regex(/^[^\r\n\0]*$/, "Must not contain line breaks or NUL.") }).meta({ id: "PutOrgSecret" });
