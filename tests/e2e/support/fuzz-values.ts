import fc from "fast-check";

/**
 * Value generators of the edge fuzz suite: strings a hostile or unlucky client sends (the
 * fuzzer of issue 10 found NUL, unpaired surrogates, escapes that are not UTF-8, huge and deep
 * values) and JSON values shaped by a JSON Schema of the served OpenAPI document, with wrong
 * types mixed in.
 */

export type JsonSchema = Record<string, unknown>;

export const HOSTILE_STRINGS = [
  "\u0000",
  "a\u0000b",
  "\ud800",
  "x\udc00y",
  "\udbff\udfff",
  "%C0%AE%C0%AE",
  "%00",
  "../../etc/passwd",
  "",
  " ",
  "\u202e\u200b",
  "💥🧨",
  "'; DROP TABLE users; --",
  "<script>alert(1)</script>",
  "\r\nX-Injected: 1",
  "a".repeat(5000),
  "é".repeat(70_000),
] as const;

/** Raw path segments that a client can put on the wire and Next.js cannot decode. */
export const RAW_BAD_SEGMENTS = ["%C0%AE%C0%AE", "%ED%A0%80", "%00", "%FF", "%", "%zz", "a%00b", "%E2%82"] as const;

/** Request bodies that are not the JSON of any schema: broken, huge, deep. */
export const RAW_BODIES = [
  "{",
  "[",
  "",
  "null",
  '"x"',
  "1e400",
  '{"__proto__":{"admin":true}}',
  "[".repeat(5000) + "]".repeat(5000),
  JSON.stringify({ name: "x".repeat(1_200_000) }),
  '{"a":"\\u0000"}',
  '{"a":"\\ud800"}',
  '{"\\u0000":1}',
] as const;

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map((s) => `${s}\u0000${s}`) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map((s) => `${s}\udfff`) },
);

/** Any JSON value of the wrong shape for a field. */
const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.constantFrom(-1, 0, 1e308, -1e308, 2 ** 53 + 1, 0.5),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(hostileString, fc.string(), { maxKeys: 3 }),
);

export interface SchemaContext {
  /** components.schemas of the document, for $ref. */
  components: Record<string, JsonSchema>;
  /** Plausible values by property name (ids of the seeded tenants, safe upstream URLs). */
  known: Record<string, readonly unknown[]>;
}

function resolve(schema: JsonSchema, ctx: SchemaContext): JsonSchema {
  const ref = schema.$ref;
  if (typeof ref !== "string") return schema;
  return ctx.components[ref.replace("#/components/schemas/", "")] ?? {};
}

/** A value for `schema`: mostly well-typed with hostile strings, sometimes of the wrong type. */
export function valueFor(raw: JsonSchema, ctx: SchemaContext, depth = 0, name?: string): fc.Arbitrary<unknown> {
  const schema = resolve(raw, ctx);
  const known = name !== undefined ? ctx.known[name] : undefined;
  const typed = typedValue(schema, ctx, depth);
  const options: fc.WeightedArbitrary<unknown>[] = [{ weight: 6, arbitrary: typed }, { weight: 1, arbitrary: wrongType }];
  if (known?.length) options.push({ weight: 6, arbitrary: fc.constantFrom(...known) });
  return fc.oneof(...options);
}

function typedValue(schema: JsonSchema, ctx: SchemaContext, depth: number): fc.Arbitrary<unknown> {
  const members = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (members?.length) return fc.oneof(...members.map((m) => valueFor(m, ctx, depth + 1)));
  if ("const" in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  switch (schema.type) {
    case "object":
      return objectFor(schema, ctx, depth);
    case "array":
      return depth > 4 ? fc.constant([]) : fc.array(valueFor((schema.items as JsonSchema) ?? {}, ctx, depth + 1), { maxLength: 3 });
    case "string":
      return stringFor(schema);
    case "integer":
      return fc.oneof(fc.integer({ min: -5, max: 300 }), fc.constantFrom(2 ** 31, -(2 ** 31)));
    case "number":
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function objectFor(schema: JsonSchema, ctx: SchemaContext, depth: number): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  if (depth > 4 || Object.keys(properties).length === 0) return fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), hostileString), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const record = fc.record(
    Object.fromEntries(Object.entries(properties).map(([key, child]) => [key, valueFor(child, ctx, depth + 1, key)])),
    { requiredKeys: [] },
  );
  // Mostly with every required key (so the request gets past validation), sometimes without.
  return fc.tuple(record, fc.integer({ min: 0, max: 9 }), fc.dictionary(hostileString, fc.string(), { maxKeys: 1 })).map(([value, dice, extra]) => {
    const out: Record<string, unknown> = { ...value };
    if (dice > 1) for (const key of required) if (!(key in out)) out[key] = "x";
    return dice === 9 ? { ...out, ...extra } : out;
  });
}

function stringFor(schema: JsonSchema): fc.Arbitrary<string> {
  const plausible =
    schema.format === "email"
      ? fc.emailAddress()
      : schema.format === "date-time"
        ? fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) }).map((d) => d.toISOString())
        : schema.pattern
          ? fc.constantFrom("a", "abc-1", "get_order", "x.y")
          : fc.string({ minLength: 1, maxLength: 24 });
  return fc.oneof({ weight: 2, arbitrary: plausible }, { weight: 2, arbitrary: hostileString });
}

/** A path segment as it goes on the wire: an encoded value, or a raw escape Next cannot decode. */
export function segmentFor(choices: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...choices).map(encodeURIComponent) },
    { weight: 2, arbitrary: fc.constantFrom(...RAW_BAD_SEGMENTS) },
    { weight: 2, arbitrary: hostileString.filter((s) => s.isWellFormed()).map(encodeURIComponent) },
  );
}
