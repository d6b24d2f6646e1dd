/**
 * JSON Schema clean-up for tool input schemas built from OpenAPI documents (pure functions).
 * OpenAPI 3.0 schemas are "almost JSON Schema": `nullable`, `example`, `discriminator`, `xml`
 * and formats such as `int64` are not JSON Schema; a circular schema is an object cycle after
 * dereferencing, and an external `$ref` (never fetched) means nothing inside a tool schema.
 */

type Json = Record<string, unknown>;

/** Formats that only OpenAPI defines; JSON Schema validators reject or ignore them. */
const OPENAPI_ONLY_FORMATS = new Set(["int32", "int64", "float", "double", "byte", "binary", "password"]);
/** Keywords that exist in OpenAPI schema objects but not in JSON Schema. */
const OPENAPI_ONLY_KEYWORDS = new Set(["nullable", "discriminator", "xml", "externalDocs", "example"]);
/** Keywords whose value is a map of name → schema. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
/** Keywords whose value is one schema. */
const SCHEMA_VALUES = new Set(["items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames", "unevaluatedProperties", "unevaluatedItems", "additionalItems"]);
/** Keywords whose value is an array of schemas. */
const SCHEMA_ARRAYS = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);

export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A JSON Schema copy of an OpenAPI schema: `nullable: true` becomes a `"null"` type, `example`
 * becomes `examples`, OpenAPI-only keywords and formats are dropped, and a `$ref` still present
 * (external: never fetched) becomes an open schema that says what it was.
 * `seen` guards against object cycles in a dereferenced document.
 */
export function toJsonSchema(schema: unknown, seen: Set<object> = new Set()): Json {
  if (!isObject(schema)) return {};
  if (seen.has(schema)) return { description: "Recursive schema (not expanded)." };
  if (typeof schema.$ref === "string") {
    // Internal references are all dereferenced already; what is left points outside the document.
    return { description: `External schema ${schema.$ref} (not fetched).` };
  }
  seen.add(schema);
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (OPENAPI_ONLY_KEYWORDS.has(key)) continue;
    if (key === "format" && typeof value === "string" && OPENAPI_ONLY_FORMATS.has(value)) continue;
    if (SCHEMA_MAPS.has(key) && isObject(value)) out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJsonSchema(v, seen)]));
    else if (SCHEMA_VALUES.has(key) && isObject(value)) out[key] = toJsonSchema(value, seen);
    else if (SCHEMA_ARRAYS.has(key) && Array.isArray(value)) out[key] = value.map((v) => toJsonSchema(v, seen));
    else out[key] = structuredCloneJson(value);
  }
  seen.delete(schema);
  if (schema.example !== undefined && out.examples === undefined) out.examples = [structuredCloneJson(schema.example)];
  if (schema.nullable === true) addNullType(out);
  return out;
}

function addNullType(schema: Json): void {
  if (typeof schema.type === "string") schema.type = schema.type === "null" ? "null" : [schema.type, "null"];
  else if (Array.isArray(schema.type) && !schema.type.includes("null")) schema.type = [...schema.type, "null"];
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
}

/** A plain-data copy (examples and defaults may hold anything the YAML parser produced). */
function structuredCloneJson(value: unknown): unknown {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(JSON.stringify(value));
  } catch {
    return undefined;
  }
}

/**
 * The properties and required names of an object schema, looking through `allOf` (the usual
 * way OpenAPI documents compose request bodies). Null when the schema is not an object.
 * Read-only properties are left out: they describe answers, not requests.
 */
export function objectShape(schema: Json): { properties: Record<string, Json>; required: string[] } | null {
  const parts = [schema, ...(Array.isArray(schema.allOf) ? schema.allOf.filter(isObject) : [])];
  const looksLikeObject = parts.some((p) => p.type === "object" || isObject(p.properties));
  if (!looksLikeObject || parts.some((p) => p.type !== undefined && p.type !== "object")) return null;
  const properties: Record<string, Json> = {};
  const required = new Set<string>();
  for (const part of parts) {
    for (const [name, prop] of Object.entries(isObject(part.properties) ? part.properties : {})) {
      if (isObject(prop) && prop.readOnly === true) continue;
      properties[name] = isObject(prop) ? prop : {};
    }
    if (Array.isArray(part.required)) for (const r of part.required) if (typeof r === "string") required.add(r);
  }
  return { properties, required: [...required].filter((r) => r in properties) };
}
