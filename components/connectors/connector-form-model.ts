import { z } from "zod";
import {
  HttpMethod,
  HttpUrl,
  ProtocolEra,
  SecretHeaders,
  SSE_ERA_MESSAGE,
  ToolInputSchema,
  ToolName,
  ToolRequest,
  UpstreamTransport,
  HttpToolInput,
} from "@/lib/connectors/schemas";
import { eraFitsTransport } from "@/lib/connectors/upstream-protocol";
import { jmespathError, ToolAnnotations, ToolOutputSchema } from "@/lib/connectors/tool-fields";
import type { ConnectorToolView } from "@/lib/connectors/connector-view";
import { Markdown, Name } from "@/lib/schemas/common";
import { authForm } from "@/components/connectors/auth-form-model";

/**
 * The connector forms' model, built from the lib's zod pieces so the browser checks exactly
 * what the API checks. Two things differ in shape only: a tool's input schema is edited as
 * JSON text, and secret headers as rows (the API takes a name → value object).
 */

const DEFAULT_INPUT_SCHEMA = '{\n  "type": "object",\n  "properties": {}\n}';

const SchemaText = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch (e) {
      ctx.addIssue({ code: "custom", message: `Not valid JSON: ${(e as Error).message}` });
      return z.NEVER;
    }
  })
  .pipe(ToolInputSchema);

export const ToolDraft = z.object({
  name: ToolName,
  title: HttpToolInput.shape.title.unwrap(),
  description: z.string().max(20_000),
  method: HttpMethod,
  path: ToolRequest.shape.path,
  inputSchemaText: SchemaText,
  /** null: the method's defaults (issue 26 point 3). */
  annotations: ToolAnnotations.nullable(),
  /** Kept as stored or imported: the form does not edit it, and saving must not drop it. */
  outputSchema: ToolOutputSchema.nullable(),
  /** The answer's JMESPath selection (`response.select`); empty: the answer as received. */
  select: z
    .string()
    .trim()
    .max(2000)
    .superRefine((expression, ctx) => {
      const error = expression ? jmespathError(expression) : null;
      if (error) ctx.addIssue({ code: "custom", message: `Not a valid JMESPath expression: ${error}` });
    }),
});
export type ToolDraftInput = z.input<typeof ToolDraft>;

/** Tool names are unique within a connector (the API says the same, per index). */
export const ToolDrafts = z.array(ToolDraft).max(2000).superRefine((tools, ctx) => {
  const seen = new Set<string>();
  tools.forEach((tool, i) => {
    if (seen.has(tool.name)) ctx.addIssue({ code: "custom", path: [i, "name"], message: `Duplicate tool name "${tool.name}".` });
    seen.add(tool.name);
  });
});

const HeaderRow = z.object({ name: z.string().trim().min(1, "Enter the header name."), value: z.string() });

/** Header rows, checked by the API's SecretHeaders rules, errors placed on the row. */
export const HeaderRows = z.array(HeaderRow).max(50).superRefine((rows, ctx) => {
  const parsed = SecretHeaders.safeParse(headersObject(rows));
  if (parsed.success) return;
  for (const issue of parsed.error.issues) {
    const index = rows.findIndex((r) => r.name.trim() === issue.path[0]);
    // Value problems are format checks on the value; everything else is about the name.
    const field = issue.code === "invalid_format" ? "value" : "name";
    const message = issue.code === "invalid_key" ? (issue.issues[0]?.message ?? issue.message) : issue.message;
    ctx.addIssue({ code: "custom", path: index >= 0 ? [index, field] : [], message });
  }
  // Two rows with the very same name collapse into one key above; say so at the second one.
  rows.forEach((row, i) => {
    if (rows.findIndex((r) => r.name.trim() === row.name.trim()) !== i) ctx.addIssue({ code: "custom", path: [i, "name"], message: "Duplicate header name." });
  });
});
export type HeaderRowInput = z.input<typeof HeaderRow>;

export function headersObject(rows: { name: string; value: string }[]): Record<string, string> {
  return Object.fromEntries(rows.map((r) => [r.name.trim(), r.value]));
}

export const HttpConnectorForm = z.object({
  name: Name,
  baseUrl: HttpUrl,
  headers: HeaderRows,
  auth: authForm("http"),
  instructions: Markdown,
  tools: ToolDrafts,
});
export type HttpConnectorFormInput = z.input<typeof HttpConnectorForm>;
export type HttpConnectorFormOutput = z.output<typeof HttpConnectorForm>;

/** An mcp connector's protocol era and transport, which must go together (as the API checks). */
export const UpstreamProtocolForm = z
  .object({ protocolEra: ProtocolEra, transport: UpstreamTransport })
  .refine((v) => eraFitsTransport(v.protocolEra, v.transport), { path: ["protocolEra"], message: SSE_ERA_MESSAGE });

export const McpConnectorForm = z
  .object({ name: Name, url: HttpUrl, headers: HeaderRows, auth: authForm("mcp"), instructions: Markdown, protocolEra: ProtocolEra, transport: UpstreamTransport })
  .refine((v) => eraFitsTransport(v.protocolEra, v.transport), { path: ["protocolEra"], message: SSE_ERA_MESSAGE });
export type McpConnectorFormInput = z.input<typeof McpConnectorForm>;

export function emptyToolDraft(): ToolDraftInput {
  return { name: "", title: "", description: "", method: "GET", path: "/", inputSchemaText: DEFAULT_INPUT_SCHEMA, annotations: null, outputSchema: null, select: "" };
}

/** A stored or imported tool as an editable draft. */
export function toolToDraft(tool: HttpToolInput | ConnectorToolView): ToolDraftInput {
  return {
    name: tool.name,
    title: tool.title ?? "",
    description: tool.description ?? "",
    method: (tool.request?.method ?? "GET") as ToolDraftInput["method"],
    path: tool.request?.path ?? "/",
    inputSchemaText: JSON.stringify(tool.inputSchema ?? { type: "object", properties: {} }, null, 2),
    annotations: tool.annotations ?? null,
    outputSchema: tool.outputSchema ?? null,
    select: tool.response?.select ?? "",
  };
}

/** A checked draft as the API's tool. */
export function draftToTool(draft: z.output<typeof ToolDraft>): HttpToolInput {
  return {
    name: draft.name,
    ...(draft.title ? { title: draft.title } : {}),
    ...(draft.description.trim() ? { description: draft.description } : {}),
    inputSchema: draft.inputSchemaText,
    request: { method: draft.method, path: draft.path },
    ...(draft.annotations ? { annotations: draft.annotations } : {}),
    ...(draft.outputSchema ? { outputSchema: draft.outputSchema } : {}),
    ...(draft.select ? { response: { select: draft.select } } : {}),
  };
}

/**
 * Where an API error path lands in these forms: `config.baseUrl` → `baseUrl`,
 * `tools.2.inputSchema.type` → `tools.2.inputSchemaText`, `tools.2.request.path` → `tools.2.path`,
 * `auth.scopes.1` → `auth.scopes` (one text field); other `auth.*` paths are the form's own.
 */
export function formPathOf(apiPath: string): string {
  if (apiPath.startsWith("auth.scopes")) return "auth.scopes";
  if (/^tools\.\d+\.response\.select$/.test(apiPath)) return apiPath.replace(/\.response\.select$/, ".select");
  const tool = /^tools\.(\d+)\.(inputSchema|request)(?:\.(\w+))?/.exec(apiPath);
  if (tool) return tool[2] === "inputSchema" ? `tools.${tool[1]}.inputSchemaText` : `tools.${tool[1]}.${tool[3] ?? "path"}`;
  if (apiPath.startsWith("config.headers")) return "headers";
  const config = /^config\.(baseUrl|url|protocolEra|transport)$/.exec(apiPath);
  return config ? config[1] : apiPath;
}
