import { z } from "zod";

/** Answer shapes of the usage endpoints (issue 14 "a usage picture"). */

export const USAGE_RANGES = ["24h", "7d", "30d"] as const;
export const UsageRange = z.enum(USAGE_RANGES);
export type UsageRange = z.infer<typeof UsageRange>;

export const UsageQuery = z.object({
  range: UsageRange.default("24h").meta({ description: "The period: the last 24 hours (hourly points), 7 days (6-hourly) or 30 days (daily)." }),
});
export type UsageQuery = z.infer<typeof UsageQuery>;

const Ms = z.number().int().nullable().meta({ description: "Milliseconds, read from fixed log-spaced latency buckets (within half a bucket); null without calls." });

const Numbers = {
  calls: z.number().int(),
  errors: z.number().int().meta({ description: "Calls that did not end ok: the tool answered an error, or the call failed." }),
  errorRate: z.number().meta({ description: "errors / calls, 0 without calls." }),
  p50Ms: Ms,
  p95Ms: Ms,
};

export const UsageNumbers = z.object(Numbers).meta({ id: "UsageNumbers" });
export type UsageNumbers = z.infer<typeof UsageNumbers>;

export const UsageRow = z
  .object({
    id: z.string().meta({ description: "Server, connector or user id (`connectorId/tool` for a tool; `` for the instance credential)." }),
    name: z.string().meta({ description: "Its current name; `(deleted)` when it no longer exists." }),
    ...Numbers,
  })
  .meta({ id: "UsageRow" });
export type UsageRow = z.infer<typeof UsageRow>;

export const ToolUsageRow = UsageRow.extend({ connectorId: z.string(), connectorName: z.string(), tool: z.string() }).meta({ id: "ToolUsageRow" });
export type ToolUsageRow = z.infer<typeof ToolUsageRow>;

export const FailingTool = ToolUsageRow.extend({
  lastError: z.string().nullable().meta({ description: "The latest error message of the period, secrets scrubbed." }),
  lastErrorAt: z.iso.datetime().nullable(),
}).meta({ id: "FailingTool" });
export type FailingTool = z.infer<typeof FailingTool>;

export const UsagePoint = z.object({ start: z.iso.datetime(), calls: z.number().int(), errors: z.number().int() }).meta({ id: "UsagePoint" });
export type UsagePoint = z.infer<typeof UsagePoint>;

export const UsageReport = z
  .object({
    range: UsageRange,
    from: z.iso.datetime(),
    to: z.iso.datetime(),
    stepSeconds: z.number().int().meta({ description: "Width of each point of `series`." }),
    totals: UsageNumbers,
    series: z.array(UsagePoint),
    servers: z.array(UsageRow),
    connectors: z.array(UsageRow),
    tools: z.array(ToolUsageRow),
    users: z.array(UsageRow),
    failingTools: z.array(FailingTool).meta({ description: "Tools with errors in the period, most errors first (at most 10), with their last error." }),
  })
  .meta({ id: "UsageReport" });
export type UsageReport = z.infer<typeof UsageReport>;
