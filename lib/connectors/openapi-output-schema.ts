import { isObject, toJsonSchema } from "@/lib/connectors/openapi-schema";
import { jsonDeeperThan, MAX_JSON_DEPTH } from "@/lib/schemas/common";

type Json = Record<string, unknown>;

/**
 * An http tool's outputSchema from its OpenAPI operation (issue 26 point 3): the JSON schema
 * of the first 2xx response that has one (the document is dereferenced already), made JSON
 * Schema by toJsonSchema. MCP's structuredContent is an object, so an array answer is
 * described as `{ items: [...] }` — the runtime wraps the answer the same way. Null when the
 * operation answers no JSON, or answers something that is neither an object nor an array.
 */
export function outputSchemaFor(responses: unknown, warnings: string[]): Json | null {
  if (!isObject(responses)) return null;
  const codes = Object.keys(responses)
    .filter((code) => /^2(\d\d|XX)$/i.test(code))
    .sort();
  for (const code of codes) {
    const response = responses[code];
    const media = isObject(response) && isObject(response.content) ? jsonMedia(response.content) : null;
    if (!media || !isObject(media.schema)) continue;
    return wrapped(toJsonSchema(media.schema), code, warnings);
  }
  return null;
}

function jsonMedia(content: Json): Json | null {
  const type = Object.keys(content).find((t) => /^application\/(.+\+)?json\b/i.test(t));
  const media = type ? content[type] : undefined;
  return isObject(media) ? media : null;
}

function wrapped(schema: Json, code: string, warnings: string[]): Json | null {
  let out: Json | null = null;
  if (isArraySchema(schema)) out = { type: "object", properties: { items: schema }, required: ["items"] };
  else if (schema.type === "object" || (schema.type === undefined && isObject(schema.properties))) out = { ...schema, type: "object" };
  if (!out) {
    warnings.push(`The ${code} answer is neither a JSON object nor an array, so the tool has no output schema.`);
    return null;
  }
  if (jsonDeeperThan(out)) {
    warnings.push(`The ${code} answer's schema nests more than ${MAX_JSON_DEPTH} levels, so the tool has no output schema.`);
    return null;
  }
  return out;
}

function isArraySchema(schema: Json): boolean {
  return schema.type === "array" || (Array.isArray(schema.type) && schema.type.includes("array") && !schema.type.includes("object"));
}
