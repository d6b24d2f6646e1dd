import { z } from "zod";
import { OrgConfigDocument } from "@/lib/org-config/schemas";

/**
 * The JSON Schema of the configuration document, from its zod schema (what a document may be, as
 * written). The document's own definition is the root, so editors read its properties at once.
 */
export function configJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(OrgConfigDocument, { io: "input", unrepresentable: "any", target: "draft-2020-12" }) as Record<string, unknown>;
  const { $defs = {}, $ref: _ref, ...rest } = schema as { $defs?: Record<string, object>; $ref?: string };
  const { OrgConfigDocument: root, ...others } = $defs;
  return closeObjects({ ...rest, title: "Switchboard organization configuration", ...root, $defs: others }) as Record<string, unknown>;
}

/**
 * Every object with named properties refuses others (`additionalProperties: false`), as apply
 * does (lib/org-config/http.ts): an editor then marks a misspelt field where it is written.
 * Objects that take any key (maps such as `headers`, free-form JSON such as `inputSchema`) say so
 * themselves and are left as they are. Walks schemas only (a `properties` map's keys are names).
 */
function closeObjects(schema: unknown): unknown {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return schema;
  const closed: Record<string, unknown> = { ...schema };
  for (const key of ["properties", "$defs", "patternProperties"]) if (isMap(closed[key])) closed[key] = mapValues(closed[key], closeObjects);
  for (const key of ["anyOf", "oneOf", "allOf", "prefixItems"]) if (Array.isArray(closed[key])) closed[key] = (closed[key] as unknown[]).map(closeObjects);
  for (const key of ["items", "additionalProperties", "not", "propertyNames"]) if (isMap(closed[key])) closed[key] = closeObjects(closed[key]);
  return "properties" in closed && !("additionalProperties" in closed) ? { ...closed, additionalProperties: false } : closed;
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const mapValues = (m: Record<string, unknown>, f: (v: unknown) => unknown) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, f(v)]));
