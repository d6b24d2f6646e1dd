"use client";

import { Bar, CartesianGrid, ComposedChart, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatCount, formatPointLabel, formatRate } from "@/components/usage/format-usage";
import type { UsagePoint } from "@/lib/usage/schemas";

/**
 * Calls (bars, left axis) and error rate (line, right axis) over the period. Colours are
 * mid-tones that read on white and on zinc-900; axis text takes the page's text colour.
 */
export function UsageChart({ series, stepSeconds, label }: { series: UsagePoint[]; stepSeconds: number; label: string }) {
  const data = series.map((p) => ({ label: formatPointLabel(p.start, stepSeconds), calls: p.calls, errorRate: p.calls === 0 ? 0 : p.errors / p.calls, errors: p.errors }));
  return (
    <figure className="grid gap-2">
      <div role="img" aria-label={label} className="h-64 w-full text-zinc-600 dark:text-zinc-400">
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={data} margin={{ top: 8, right: 4, bottom: 0, left: -12 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="currentColor" strokeOpacity={0.15} vertical={false} />
            <XAxis dataKey="label" tick={{ fill: "currentColor", fontSize: 11 }} stroke="currentColor" strokeOpacity={0.3} minTickGap={16} />
            <YAxis yAxisId="calls" allowDecimals={false} tick={{ fill: "currentColor", fontSize: 11 }} stroke="currentColor" strokeOpacity={0.3} width={44} />
            <YAxis yAxisId="rate" orientation="right" domain={[0, 1]} tickFormatter={(v: number) => formatRate(v)} tick={{ fill: "currentColor", fontSize: 11 }} stroke="currentColor" strokeOpacity={0.3} width={40} />
            <Tooltip content={<PointTooltip />} cursor={{ fill: "currentColor", fillOpacity: 0.08 }} />
            <Bar yAxisId="calls" dataKey="calls" name="Calls" fill="#0ea5e9" radius={[2, 2, 0, 0]} isAnimationActive={false} />
            <Line yAxisId="rate" dataKey="errorRate" name="Error rate" stroke="#ef4444" strokeWidth={2} dot={false} isAnimationActive={false} />
          </ComposedChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="flex flex-wrap gap-4 text-xs text-zinc-600 dark:text-zinc-400">
        <span className="inline-flex items-center gap-1.5">
          <span aria-hidden className="inline-block size-2.5 rounded-sm bg-sky-500" /> Calls
        </span>
        <span className="inline-flex items-center gap-1.5">
          <span aria-hidden className="inline-block h-0.5 w-3 bg-red-500" /> Error rate
        </span>
        <span>Times in UTC.</span>
      </figcaption>
    </figure>
  );
}

interface TooltipProps {
  active?: boolean;
  label?: string;
  payload?: Array<{ payload: { calls: number; errors: number; errorRate: number } }>;
}

function PointTooltip({ active, label, payload }: TooltipProps) {
  const point = payload?.[0]?.payload;
  if (!active || !point) return null;
  return (
    <div className="rounded-md border border-zinc-200 bg-white px-3 py-2 text-xs text-zinc-900 shadow-sm dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100">
      <p className="font-medium">{label}</p>
      <p>
        {formatCount(point.calls)} calls, {formatCount(point.errors)} errors ({formatRate(point.errorRate)})
      </p>
    </div>
  );
}
