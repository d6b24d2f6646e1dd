import SwaggerParser from "@apidevtools/swagger-parser";
import YAML from "yaml";
import { HttpToolInput, TOOL_NAME_PATTERN, TOOL_TITLE_MAX_LENGTH } from "@/lib/connectors/schemas";
import { isObject, objectShape, toJsonSchema } from "@/lib/connectors/openapi-schema";
import { type ImportedSecretHeader, securityHeaders } from "@/lib/connectors/openapi-security-headers";
import { outputSchemaFor } from "@/lib/connectors/openapi-output-schema";
import { defaultHttpAnnotations } from "@/lib/connectors/tool-fields";

export type { ImportedSecretHeader };

/**
 * OpenAPI 3 → http connector tools, one tool per operation (pure: no network, no files).
 * The document (JSON or YAML) is parsed and its internal `$ref`s dereferenced by
 * @apidevtools/swagger-parser with every external resolver off, so an imported document can
 * never make the server fetch a URL or read a file. Each operation's path and query
 * parameters and JSON request body become the tool's input schema, shaped for the runtime's
 * mapping: `{param}` in the path, other arguments in the query (GET, DELETE) or JSON body.
 */

type Json = Record<string, unknown>;
type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export const MAX_OPENAPI_BYTES = 5 * 1024 * 1024;
const METHODS: Method[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const UNSUPPORTED_METHODS = ["head", "options", "trace"];
const BODYLESS = new Set<Method>(["GET", "DELETE"]);

export interface ImportedOperation {
  /** `METHOD /path`, unique in the document: what a person picks. */
  key: string;
  method: Method;
  path: string;
  summary: string | null;
  tags: string[];
  deprecated: boolean;
  /** Ready for CreateConnectorBody / UpdateConnectorBody `tools`. */
  tool: HttpToolInput;
  /** What could not be mapped (header parameters, non-JSON bodies, …). */
  warnings: string[];
}

export interface OpenApiImport {
  title: string | null;
  version: string | null;
  openapiVersion: string;
  /** The first server's URL with its variables filled in, when it is absolute http(s). */
  baseUrl: string | null;
  operations: ImportedOperation[];
  /** From components.securitySchemes: the secret headers to fill in. */
  secretHeaders: ImportedSecretHeader[];
  /** Operations that cannot become tools, with the reason. */
  skipped: { key: string; reason: string }[];
  warnings: string[];
}

/** The document cannot be imported; the message says why, for the person who pasted it. */
export class OpenApiImportError extends Error {
  override name = "OpenApiImportError";
}

/** Parses, checks and dereferences an OpenAPI 3.x document and turns its operations into tools. */
export async function importOpenApi(text: string): Promise<OpenApiImport> {
  if (Buffer.byteLength(text, "utf8") > MAX_OPENAPI_BYTES) throw new OpenApiImportError("The document is larger than 5 MB.");
  const raw = parseDocument(text);
  const openapiVersion = typeof raw.openapi === "string" ? raw.openapi : null;
  if (!openapiVersion) {
    throw new OpenApiImportError(raw.swagger ? "This is a Swagger 2.0 document; convert it to OpenAPI 3 first." : 'Not an OpenAPI document: the "openapi" field is missing.');
  }
  if (!/^3\.\d+(\.\d+)?/.test(openapiVersion)) throw new OpenApiImportError(`OpenAPI ${openapiVersion} is not supported; use OpenAPI 3.0 or 3.1.`);
  // The parser would say "[object Object] is not a valid Openapi API definition".
  if (!isObject(raw.paths) && !isObject(raw.webhooks)) throw new OpenApiImportError('The document has no "paths", so there are no operations to import.');
  const doc = await dereference(raw);
  const info = isObject(doc.info) ? doc.info : {};
  const warnings: string[] = [];
  const baseUrl = serverUrl(doc, warnings);
  const { operations, skipped } = collectOperations(doc);
  const secretHeaders = securityHeaders(doc, warnings);
  if (operations.length === 0 && skipped.length === 0) warnings.push("The document has no operations.");
  return {
    title: typeof info.title === "string" ? info.title : null,
    version: typeof info.version === "string" ? info.version : null,
    openapiVersion,
    baseUrl,
    operations,
    secretHeaders,
    skipped,
    warnings,
  };
}

function parseDocument(text: string): Json {
  let value: unknown;
  const trimmed = text.trim();
  if (!trimmed) throw new OpenApiImportError("The document is empty.");
  try {
    value = trimmed.startsWith("{") ? JSON.parse(trimmed) : YAML.parse(trimmed, { maxAliasCount: 1000 });
  } catch (e) {
    throw new OpenApiImportError(`The document is neither valid JSON nor valid YAML: ${(e as Error).message.split("\n")[0]}`);
  }
  if (!isObject(value)) throw new OpenApiImportError("The document must be a JSON or YAML object.");
  return value;
}

async function dereference(doc: Json): Promise<Json> {
  try {
    // Circular references become object cycles; toJsonSchema cuts them where they recur.
    const result = await SwaggerParser.dereference(structuredClone(doc) as never, {
      resolve: { external: false, file: false, http: false },
    } as never);
    return result as unknown as Json;
  } catch (e) {
    throw new OpenApiImportError(`The document cannot be read: ${(e as Error).message.split("\n")[0]}`);
  }
}

/** servers[0].url with `{variables}` replaced by their defaults; null unless absolute http(s). */
function serverUrl(doc: Json, warnings: string[]): string | null {
  const server = Array.isArray(doc.servers) && isObject(doc.servers[0]) ? doc.servers[0] : null;
  if (!server || typeof server.url !== "string") {
    warnings.push("The document names no server; enter the API's base URL yourself.");
    return null;
  }
  const variables = isObject(server.variables) ? server.variables : {};
  const url = server.url.replace(/\{([^{}]+)\}/g, (whole, name: string) => {
    const variable = variables[name];
    return isObject(variable) && typeof variable.default === "string" ? variable.default : whole;
  });
  if (!/^https?:\/\/[^{}]+$/i.test(url) || !URL.canParse(url)) {
    warnings.push(`The server URL "${server.url}" is not an absolute http(s) URL; enter the API's base URL yourself.`);
    return null;
  }
  return url.replace(/\/+$/, "");
}

function collectOperations(doc: Json): { operations: ImportedOperation[]; skipped: { key: string; reason: string }[] } {
  const operations: ImportedOperation[] = [];
  const skipped: { key: string; reason: string }[] = [];
  const names = new Set<string>();
  for (const [path, item] of Object.entries(isObject(doc.paths) ? doc.paths : {})) {
    if (!isObject(item)) continue;
    for (const lower of UNSUPPORTED_METHODS) {
      if (isObject(item[lower])) skipped.push({ key: `${lower.toUpperCase()} ${path}`, reason: `http tools cannot use ${lower.toUpperCase()}.` });
    }
    for (const method of METHODS) {
      const op = item[method.toLowerCase()];
      if (!isObject(op)) continue;
      const key = `${method} ${path}`;
      if (!path.startsWith("/")) {
        skipped.push({ key, reason: "The path does not start with '/'." });
        continue;
      }
      const imported = toOperation(method, path, item, op, names);
      if ("reason" in imported) skipped.push({ key, reason: imported.reason });
      else operations.push(imported);
    }
  }
  return { operations, skipped };
}

function toOperation(method: Method, path: string, item: Json, op: Json, names: Set<string>): ImportedOperation | { reason: string } {
  const warnings: string[] = [];
  const name = uniqueName(toolNameFor(method, path, op.operationId), names);
  const summary = typeof op.summary === "string" ? op.summary.trim() : "";
  const detail = typeof op.description === "string" ? op.description.trim() : "";
  // The summary is the tool's title, the description its description ("keep summary and
  // description apart"). An operation with only a summary gives it as the description too:
  // clients before 2025-06-18 read no title, and a tool without a description tells a model nothing.
  const title = summary.slice(0, TOOL_TITLE_MAX_LENGTH) || undefined;
  const description = (detail || summary).slice(0, 20_000) || undefined;
  const inputSchema = inputSchemaFor(method, path, [...asArray(item.parameters), ...asArray(op.parameters)], op.requestBody, warnings);
  const outputSchema = outputSchemaFor(op.responses, warnings);
  // Written out so the person importing sees (and may change) what the method says the tool does.
  const annotations = defaultHttpAnnotations(method);
  const parsed = HttpToolInput.safeParse({ name, title, description, inputSchema, request: { method, path }, annotations, ...(outputSchema ? { outputSchema } : {}) });
  if (!parsed.success) return { reason: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") };
  names.add(name);
  return {
    key: `${method} ${path}`,
    method,
    path,
    summary: summary || null,
    tags: asArray(op.tags).filter((t): t is string => typeof t === "string"),
    deprecated: op.deprecated === true,
    tool: parsed.data,
    warnings,
  };
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The operationId made into a valid tool name, else `get_customers_id` from method and path. */
export function toolNameFor(method: string, path: string, operationId: unknown): string {
  const source = typeof operationId === "string" && operationId.trim() ? operationId : `${method.toLowerCase()}_${path}`;
  const cleaned = source
    .replace(/[^A-Za-z0-9_.-]+/g, "_")
    .replace(/_+/g, "_")
    .replace(/^[_.-]+|[_.-]+$/g, "")
    .slice(0, 64);
  return cleaned || method.toLowerCase();
}

function uniqueName(base: string, taken: Set<string>): string {
  if (!taken.has(base) && TOOL_NAME_PATTERN.test(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const candidate = `${base.slice(0, 64 - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * Path and query parameters (operation-level ones override path-level ones of the same name
 * and location) plus the properties of a JSON object request body, as one object schema.
 */
function inputSchemaFor(method: Method, path: string, params: unknown[], requestBody: unknown, warnings: string[]): Json {
  const properties: Record<string, unknown> = {};
  const required = new Set<string>();
  const byKey = new Map<string, Json>();
  for (const p of params) if (isObject(p) && typeof p.name === "string") byKey.set(`${p.in}:${p.name}`, p);
  for (const param of byKey.values()) addParameter(method, param, properties, required, warnings);
  for (const placeholder of path.matchAll(/\{([^{}]+)\}/g)) {
    if (!(placeholder[1] in properties)) {
      properties[placeholder[1]] = { type: "string" };
      warnings.push(`Path parameter "${placeholder[1]}" is not declared; it was added as a string.`);
    }
    required.add(placeholder[1]);
  }
  if (requestBody !== undefined) addBody(method, requestBody, properties, required, warnings);
  const schema: Json = { type: "object", properties };
  if (required.size > 0) schema.required = [...required];
  return schema;
}

function addParameter(method: Method, param: Json, properties: Record<string, unknown>, required: Set<string>, warnings: string[]): void {
  const name = param.name as string;
  if (param.in === "header" || param.in === "cookie") {
    warnings.push(`The ${param.in} parameter "${name}" is not sent by http tools; set a fixed value as a connector header if the API needs it.`);
    return;
  }
  if (param.in === "query" && !BODYLESS.has(method)) {
    warnings.push(`The query parameter "${name}" is left out: a ${method} tool sends its non-path arguments in the JSON body.`);
    return;
  }
  if (param.in !== "path" && param.in !== "query") return;
  const content = isObject(param.content) ? Object.values(param.content).find(isObject) : undefined;
  const schema = toJsonSchema(param.schema ?? content?.schema ?? { type: "string" });
  if (typeof param.description === "string" && schema.description === undefined) schema.description = param.description;
  if (param.deprecated === true) schema.deprecated = true;
  properties[name] = schema;
  if (param.in === "path" || param.required === true) required.add(name);
}

function addBody(method: Method, requestBody: unknown, properties: Record<string, unknown>, required: Set<string>, warnings: string[]): void {
  if (!isObject(requestBody) || !isObject(requestBody.content)) return;
  if (BODYLESS.has(method)) {
    warnings.push(`The request body is left out: a ${method} tool sends no body.`);
    return;
  }
  const types = Object.keys(requestBody.content);
  const jsonType = types.find((t) => /^application\/(.+\+)?json\b/i.test(t));
  const media = jsonType ? requestBody.content[jsonType] : undefined;
  if (!jsonType || !isObject(media)) {
    warnings.push(`The request body (${types.join(", ") || "no media type"}) is not JSON; http tools send JSON bodies only.`);
    return;
  }
  const shape = objectShape(toJsonSchema(media.schema));
  if (!shape) {
    warnings.push("The JSON request body is not an object; http tools send their arguments as one JSON object.");
    return;
  }
  for (const [name, schema] of Object.entries(shape.properties)) {
    if (name in properties) {
      warnings.push(`The body property "${name}" has the same name as a parameter; the parameter is kept.`);
      continue;
    }
    properties[name] = schema;
    // A body is optional unless the document says `required: true` (OpenAPI default), and so are its properties.
    if (requestBody.required === true && shape.required.includes(name)) required.add(name);
  }
}
