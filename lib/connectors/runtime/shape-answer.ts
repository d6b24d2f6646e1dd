import { search } from "@jmespath-community/jmespath";
import type { JSONValue } from "@jmespath-community/jmespath";
import { schemaMismatch } from "@/lib/connectors/runtime/validate-arguments";

/**
 * An http tool's JSON answer made into what the model gets (issue 26 points 3 and 4): the
 * tool's JMESPath `select` applied to the answer as received, then the structured form — an
 * object as it is, an array wrapped as `{ items }` when the tool declares an output schema
 * (structuredContent is always an object) — checked against that schema.
 */

export interface AnswerShape {
  select: string | null;
  outputSchema: Record<string, unknown> | null;
}

export type Shaped = { ok: true; value: unknown; structured?: Record<string, unknown> } | { ok: false; message: string };

export function shapeJsonAnswer(value: unknown, shape: AnswerShape): Shaped {
  let selected = value;
  if (shape.select) {
    try {
      selected = search(value as JSONValue, shape.select);
    } catch (e) {
      return { ok: false, message: `The answer could not be shaped by the tool's selection "${shape.select}": ${e instanceof Error ? e.message : String(e)}` };
    }
  }
  const structured = structuredOf(selected, shape.outputSchema !== null);
  if (shape.outputSchema) {
    const mismatch = structured ? schemaMismatch(shape.outputSchema, structured) : "the answer is not a JSON object or array";
    if (mismatch) return { ok: false, message: `The answer does not match the tool's output schema: ${mismatch}.` };
  }
  return { ok: true, value: selected, ...(structured ? { structured } : {}) };
}

function structuredOf(value: unknown, declared: boolean): Record<string, unknown> | undefined {
  if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  if (declared && Array.isArray(value)) return { items: value };
  return undefined;
}

/** The message of an answer with an output schema that carries nothing structured (text, an image, an empty body). */
export function notStructuredMessage(): string {
  return "The answer does not match the tool's output schema: the upstream did not answer JSON.";
}
