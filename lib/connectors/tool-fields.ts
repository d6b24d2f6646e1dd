import { z } from "zod";
import { compile } from "@jmespath-community/jmespath";
import { jsonDeeperThan, MAX_JSON_DEPTH } from "@/lib/schemas/common";

/**
 * The MCP fields an admin may give a tool besides its name and input (issue 26): annotations
 * (what the tool does: read-only, destructive, …), an output schema (what its structured
 * answer looks like) and, for http tools, a JMESPath selection applied to the answer.
 */

/** The MCP ToolAnnotations hints (all optional; the specification's own names). */
export const ToolAnnotations = z
  .object({
    title: z.string().trim().max(200).optional(),
    readOnlyHint: z.boolean().optional(),
    destructiveHint: z.boolean().optional(),
    idempotentHint: z.boolean().optional(),
    openWorldHint: z.boolean().optional(),
  })
  .strict()
  .meta({ id: "ToolAnnotations", description: "MCP tool annotations: hints about what the tool does, for clients and models." });
export type ToolAnnotations = z.infer<typeof ToolAnnotations>;

/** An MCP output schema: a JSON Schema of `"type": "object"` (structuredContent is always an object). */
export const ToolOutputSchema = z
  .record(z.string(), z.unknown())
  .superRefine((schema, ctx) => {
    if (jsonDeeperThan(schema)) ctx.addIssue({ code: "custom", message: `An output schema may nest at most ${MAX_JSON_DEPTH} levels deep.` });
    if (schema.type !== "object") ctx.addIssue({ code: "custom", path: ["type"], message: 'An output schema must be a JSON Schema with "type": "object" (wrap an array answer as { items }).' });
  })
  .meta({ description: "JSON Schema of the tool's structuredContent; the answer is checked against it." });
export type ToolOutputSchema = z.infer<typeof ToolOutputSchema>;

/** Whether `expression` is a JMESPath expression the library compiles; its error message otherwise. */
export function jmespathError(expression: string): string | null {
  try {
    compile(expression);
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : "Not a valid JMESPath expression.";
  }
}

/** How an http tool's JSON answer is shaped before the model sees it. */
export const ToolResponseShape = z
  .object({
    select: z
      .string()
      .trim()
      .min(1)
      .max(2000)
      .superRefine((expression, ctx) => {
        const error = jmespathError(expression);
        if (error) ctx.addIssue({ code: "custom", message: `Not a valid JMESPath expression: ${error}` });
      })
      .meta({ description: "JMESPath expression applied to the upstream's JSON answer, as received, before it becomes content and structuredContent." }),
  })
  .strict()
  .meta({ id: "ToolResponseShape" });
export type ToolResponseShape = z.infer<typeof ToolResponseShape>;

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * What an http tool's method says it does, when nobody said otherwise: GET only reads (and
 * may be repeated), PUT and DELETE may be repeated, DELETE destroys; every http tool talks
 * to a system outside the platform (open world).
 */
export function defaultHttpAnnotations(method: string): ToolAnnotations {
  const m = method.toUpperCase() as Method;
  return {
    readOnlyHint: m === "GET",
    // Meaningful only for a tool that writes (the specification's rule).
    ...(m === "GET" ? {} : { destructiveHint: m === "DELETE" }),
    idempotentHint: m === "GET" || m === "PUT" || m === "DELETE",
    openWorldHint: true,
  };
}
