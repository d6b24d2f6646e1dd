import { z } from "zod";
import { Id } from "@/lib/schemas/common";
import { ToolName, TOOL_TITLE_MAX_LENGTH } from "@/lib/connectors/schemas";
import { ToolAnnotations } from "@/lib/connectors/tool-fields";

/** What one MCP server tells the model about one connector tool (issue 26 point 1). */
export const ToolOverrideItem = z
  .object({
    connectorId: Id,
    tool: z.string().min(1).max(200).meta({ description: "The connector's own tool name (what roles name)." }),
    name: ToolName.optional().meta({ description: "The name the model sees; `tools/call` by it reaches the connector's tool." }),
    title: z.string().trim().max(TOOL_TITLE_MAX_LENGTH).optional(),
    description: z.string().max(20_000).optional(),
    annotations: ToolAnnotations.optional().meta({ description: "Replaces the tool's annotations as a whole." }),
    hidden: z.boolean().optional().meta({ description: "Neither listed nor callable on this server (the same error as an unknown tool)." }),
  })
  .meta({ id: "ToolOverride" });
export type ToolOverrideItem = z.infer<typeof ToolOverrideItem>;

export const SetToolOverridesBody = z
  .object({
    items: z
      .array(ToolOverrideItem)
      .max(2000)
      .superRefine((items, ctx) => {
        const seen = new Set<string>();
        items.forEach((item, i) => {
          const key = `${item.connectorId}\u0000${item.tool}`;
          if (seen.has(key)) ctx.addIssue({ code: "custom", path: [i, "tool"], message: `The tool "${item.tool}" of this connector is listed twice.` });
          seen.add(key);
        });
      }),
  })
  .meta({ id: "SetToolOverrides" });
export type SetToolOverridesBody = z.infer<typeof SetToolOverridesBody>;

export const ToolOverrides = z
  .object({
    items: z.array(
      ToolOverrideItem.extend({
        missing: z.boolean().meta({ description: "The connector has no such tool now (it disappeared upstream); the override is kept." }),
      }),
    ),
  })
  .meta({ id: "ToolOverrides" });
