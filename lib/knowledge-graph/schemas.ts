import { z } from "zod";
import "@/lib/schemas/plain-messages";

/** The manual layer of a connector's knowledge graph (PUT replaces it whole). */

const Key = z.string().trim().min(1, "Must not be empty.").max(200);
const Text = z.string().trim().min(1, "Must not be empty.").max(500);
const Description = z.string().max(20_000).nullable().optional();

export const GraphEntityInput = z.object({ key: Key, label: Text, description: Description });
/** `from`/`to` name entity keys of this manual layer or of the derived layer. */
export const GraphRelationInput = z.object({ from: Key, to: Key, kind: Text, description: Description });

export const PutManualGraphBody = z
  .object({
    entities: z
      .array(GraphEntityInput)
      .max(5000)
      .superRefine((entities, ctx) => {
        const seen = new Set<string>();
        entities.forEach((e, i) => {
          if (seen.has(e.key)) ctx.addIssue({ code: "custom", path: [i, "key"], message: `Duplicate entity key "${e.key}".` });
          seen.add(e.key);
        });
      }),
    relations: z.array(GraphRelationInput).max(20_000),
  })
  .meta({ id: "PutManualGraph" });
export type PutManualGraphBody = z.infer<typeof PutManualGraphBody>;

export const ManualGraph = z
  .object({
    connectorId: z.string(),
    entities: z.array(z.object({ key: z.string(), label: z.string(), description: z.string().nullable() })),
    relations: z.array(z.object({ from: z.string(), to: z.string(), kind: z.string(), description: z.string().nullable() })),
  })
  .meta({ id: "ManualGraph" });
