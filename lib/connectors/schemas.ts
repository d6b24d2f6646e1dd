import { z } from "zod";
import { listQuery } from "@/lib/api/list-query";
import { jsonDeeperThan, Markdown, MAX_JSON_DEPTH, Name } from "@/lib/schemas/common";
import { eraFitsTransport, PROTOCOL_ERAS, UPSTREAM_TRANSPORTS } from "@/lib/connectors/upstream-protocol";
import { ConnectorAuthInput, ConnectorAuthView } from "@/lib/connectors/upstream-auth/auth-schemas";
import { ToolAnnotations, ToolOutputSchema, ToolResponseShape } from "@/lib/connectors/tool-fields";

/** Request and answer shapes of the connector endpoints (ADMIN_API.md "Connectors"). */

export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
export const ToolName = z.string().regex(TOOL_NAME_PATTERN, "Use 1 to 64 letters, digits, '_', '.' or '-'.");

/** A JSON Schema describing a tool's arguments: always an object schema. */
export const ToolInputSchema = z.record(z.string(), z.unknown()).superRefine((schema, ctx) => {
  if (jsonDeeperThan(schema)) ctx.addIssue({ code: "custom", message: `An input schema may nest at most ${MAX_JSON_DEPTH} levels deep.` });
  if (schema.type !== "object") ctx.addIssue({ code: "custom", path: ["type"], message: 'An input schema must be a JSON Schema with "type": "object".' });
  const { properties, required } = schema;
  if (properties !== undefined && (typeof properties !== "object" || properties === null || Array.isArray(properties))) {
    ctx.addIssue({ code: "custom", path: ["properties"], message: "properties must be an object." });
  }
  if (required !== undefined && !(Array.isArray(required) && required.every((r) => typeof r === "string"))) {
    ctx.addIssue({ code: "custom", path: ["required"], message: "required must be an array of strings." });
  }
});
export type ToolInputSchema = z.infer<typeof ToolInputSchema>;

export const HttpMethod = z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]);

export const ToolRequest = z
  .object({ method: HttpMethod, path: z.string().min(1).max(2048).regex(/^\//, "The path must start with '/'.") })
  .meta({ id: "ToolRequest" });
export type ToolRequest = z.infer<typeof ToolRequest>;

/** Longest tool title: a short name for people, like every other name in the API. */
export const TOOL_TITLE_MAX_LENGTH = 200;

export const HttpToolInput = z.object({
  name: ToolName,
  title: z
    .string()
    .trim()
    .max(TOOL_TITLE_MAX_LENGTH)
    .optional()
    .meta({ description: "A short name for people, published as the MCP tool `title` (an imported OpenAPI operation's summary). Empty or absent: none." }),
  description: z.string().max(20_000).optional(),
  inputSchema: ToolInputSchema.optional(),
  request: ToolRequest,
  annotations: ToolAnnotations.optional().meta({ description: "Replaces the defaults from the method (GET: read-only and idempotent; PUT, DELETE: idempotent; DELETE: destructive; all: open-world)." }),
  outputSchema: ToolOutputSchema.optional(),
  response: ToolResponseShape.optional(),
});
export type HttpToolInput = z.infer<typeof HttpToolInput>;

/** A tool list whose names are unique within the connector. */
const ToolList = z
  .array(HttpToolInput)
  .max(2000)
  .superRefine((tools, ctx) => {
    const seen = new Set<string>();
    tools.forEach((tool, i) => {
      if (seen.has(tool.name)) ctx.addIssue({ code: "custom", path: [i, "name"], message: `Duplicate tool name "${tool.name}".` });
      seen.add(tool.name);
    });
  });

/** Secret request headers: write-only, stored encrypted, never returned. */
const HeaderName = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/, "Not a valid HTTP header name.");
const HeaderValue = z.string().max(8192).regex(/^[^\r\n\0]*$/, "Header values must not contain line breaks or NUL.");
/** Headers the HTTP client or the MCP transport set themselves. */
const RESERVED_HEADERS = new Set(["host", "content-length", "connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "mcp-session-id", "mcp-protocol-version"]);
export const SecretHeaders = z
  .record(HeaderName, HeaderValue)
  .refine((h) => Object.keys(h).length <= 50, "At most 50 headers.")
  .superRefine((headers, ctx) => {
    const seen = new Set<string>();
    for (const name of Object.keys(headers)) {
      const lower = name.toLowerCase();
      if (RESERVED_HEADERS.has(lower)) ctx.addIssue({ code: "custom", path: [name], message: `The ${name} header is set by the platform itself.` });
      else if (seen.has(lower)) ctx.addIssue({ code: "custom", path: [name], message: "Duplicate header name (header names are case-insensitive)." });
      seen.add(lower);
    }
  })
  .meta({ description: "Write-only: stored encrypted and never returned; `{}` clears them." });
export type SecretHeaders = z.infer<typeof SecretHeaders>;

/**
 * Changes to some secret headers, the others kept as they are (their values are never read
 * back, so replacing the whole set would mean typing every one again): `set` adds or replaces
 * values (names are case-insensitive), `remove` drops headers by name.
 */
export const HeaderChanges = z
  .object({
    set: z.record(HeaderName, HeaderValue).optional(),
    remove: z.array(HeaderName).max(50).optional(),
  })
  .meta({ id: "SecretHeaderChanges", description: "Write-only: change or remove some secret headers and keep the rest." });
export type HeaderChanges = z.infer<typeof HeaderChanges>;

export const HttpUrl = z
  .url({ protocol: /^https?$/, error: "Must be an absolute http(s) URL." })
  .max(2048)
  .refine((u) => !URL.canParse(u) || (new URL(u).username === "" && new URL(u).password === ""), "Put credentials in headers, not in the URL.");

const Instructions = Markdown.nullable().optional();

export const ProtocolEra = z.enum(PROTOCOL_ERAS).meta({
  description:
    "mcp connectors: the upstream connection's protocol era (default `auto`). `auto` probes `server/discover` and falls back to `initialize`; `2025-11-25` is the `initialize` handshake at exactly that revision; `2026-07-28` requires `server/discover` to offer it.",
});
export const UpstreamTransport = z.enum(UPSTREAM_TRANSPORTS).meta({
  description: "mcp connectors: `streamable-http` (default), or `sse` for the legacy HTTP+SSE transport (2024-11-05; 2025-era only).",
});
export const ToolApproval = z.boolean().meta({
  description:
    "mcp connectors: a tool whose description, input schema or annotations change upstream keeps serving its approved definition, and a new tool is not served, until an admin approves it (POST /connectors/{connectorId}/tools/{tool}/approve). On by default for new mcp connectors.",
});
export const SSE_ERA_MESSAGE = "The HTTP+SSE transport carries the 2025-era protocol only: choose auto or 2025-11-25.";

const HttpConnectorInput = z.object({
  type: z.literal("http"),
  name: Name,
  instructions: Instructions,
  config: z.object({ baseUrl: HttpUrl, headers: SecretHeaders.optional() }),
  auth: ConnectorAuthInput.optional(),
  tools: ToolList.default([]),
});

const McpConnectorInput = z.object({
  type: z.literal("mcp"),
  name: Name,
  instructions: Instructions,
  config: z
    .object({ url: HttpUrl, headers: SecretHeaders.optional(), protocolEra: ProtocolEra.optional(), transport: UpstreamTransport.optional(), toolApproval: ToolApproval.optional() })
    .refine((c) => eraFitsTransport(c.protocolEra ?? "auto", c.transport ?? "streamable-http"), { path: ["protocolEra"], message: SSE_ERA_MESSAGE }),
  auth: ConnectorAuthInput.optional(),
  tools: z
    .array(z.unknown())
    .max(0, "The tools of an mcp connector are discovered from the upstream server; send none.")
    .optional(),
});

export const CreateConnectorBody = z.discriminatedUnion("type", [HttpConnectorInput, McpConnectorInput]).meta({ id: "CreateConnector" });
export type CreateConnectorBody = z.infer<typeof CreateConnectorBody>;

export const UpdateConnectorBody = z
  .object({
    name: Name.optional(),
    instructions: Instructions,
    config: z
      .object({
        baseUrl: HttpUrl.optional().meta({ description: "http connectors only" }),
        url: HttpUrl.optional().meta({ description: "mcp connectors only" }),
        headers: SecretHeaders.optional(),
        headerChanges: HeaderChanges.optional(),
        protocolEra: ProtocolEra.optional(),
        transport: UpstreamTransport.optional(),
        toolApproval: ToolApproval.optional(),
      })
      .refine((c) => c.headers === undefined || c.headerChanges === undefined, { message: "Send headers (the whole set) or headerChanges, not both.", path: ["headerChanges"] })
      .optional(),
    auth: ConnectorAuthInput.optional().meta({ description: "Replaces the auth; a client secret left out is kept (same type). A changed client or scopes asks every connection to connect again." }),
    tools: ToolList.optional().meta({ description: "http connectors only; replaces the whole set" }),
  })
  .meta({ id: "UpdateConnector" });
export type UpdateConnectorBody = z.infer<typeof UpdateConnectorBody>;

export const ConnectorTool = z
  .object({
    name: z.string(),
    title: z.string().nullable(),
    description: z.string(),
    inputSchema: z.record(z.string(), z.unknown()),
    request: ToolRequest.nullable(),
    annotations: ToolAnnotations.nullable().meta({ description: "As stored; an http tool without any is served with the defaults of its method." }),
    outputSchema: z.record(z.string(), z.unknown()).nullable(),
    response: ToolResponseShape.nullable().meta({ description: "http tools: how the answer is shaped; null: as received." }),
    approval: z
      .object({
        state: z.enum(["changed", "new"]),
        approved: z.object({ title: z.string().nullable(), description: z.string(), inputSchema: z.unknown(), annotations: z.unknown() }).nullable(),
      })
      .nullable()
      .meta({ description: "Waiting for an admin's approval: `changed` (the approved definition, still served, is `approved`; the fields above are the upstream's new ones) or `new` (not served). Null: approved." }),
  })
  .meta({ id: "ConnectorTool" });

export const Connector = z
  .object({
    id: z.string(),
    orgId: z.string(),
    name: z.string(),
    slug: z.string(),
    type: z.enum(["http", "mcp"]),
    instructions: z.string().nullable(),
    config: z.object({ baseUrl: z.string().optional(), url: z.string().optional(), protocolEra: ProtocolEra.optional(), transport: UpstreamTransport.optional(), toolApproval: ToolApproval.optional() }),
    hasSecretHeaders: z.array(z.string()).meta({ description: "Names of the secret headers that are set (never their values)." }),
    auth: ConnectorAuthView,
    protocolVersion: z.string().nullable(),
    eraFallback: z
      .object({ from: z.literal("2026-07-28"), reason: z.string(), at: z.iso.datetime() })
      .nullable()
      .meta({
        description:
          "mcp connectors on `auto`: set when the upstream answered `server/discover` but refused the 2026-07-28 requests that carry calls, so the connector fell back to `initialize` (2025-era); `reason` is what the 2026-07-28 path answered. Null while the 2026-07-28 path carries calls. Cleared when the connector's url, era or transport change.",
      }),
    tools: z.array(ConnectorTool),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "Connector" });

/** One row of a connector's tool list: the tool with its id (what a bulk delete names) and place. */
export const ListedTool = ConnectorTool.extend({
  id: z.string(),
  position: z.number().int().meta({ description: "The tool's place in the connector's own order." }),
}).meta({ id: "ListedTool" });

/** List parameters of a connector's tools (a connector may have hundreds). */
export const ToolListQuery = listQuery(["name", "position"], "tool names, titles and descriptions");
export type ToolListQuery = z.infer<typeof ToolListQuery>;

/** List parameters of an organization's connectors. */
export const ConnectorListQuery = listQuery(["name", "slug", "type", "createdAt", "updatedAt"], "name and slug");
export type ConnectorListQuery = z.infer<typeof ConnectorListQuery>;
