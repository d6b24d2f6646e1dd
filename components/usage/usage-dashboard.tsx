import Link from "next/link";
import { Activity } from "lucide-react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { cn } from "@/components/ui/cn";
import { focusRing } from "@/components/ui/focus-ring";
import { UsageChart } from "@/components/usage/usage-chart";
import { UsageTable, type UsageTableRow } from "@/components/usage/usage-table";
import { formatCount, formatMs, formatRate } from "@/components/usage/format-usage";
import { USAGE_RANGES, type UsageRange, type UsageReport } from "@/lib/usage/schemas";

const RANGE_LABELS: Record<UsageRange, string> = { "24h": "24 hours", "7d": "7 days", "30d": "30 days" };

/** The usage picture of an org or a workspace: period links, totals, chart, tables, failing tools. */
export function UsageDashboard({ report, basePath, scopeLabel }: { report: UsageReport; basePath: string; scopeLabel: string }) {
  return (
    <div className="grid gap-6">
      <RangeLinks current={report.range} basePath={basePath} />
      {report.totals.calls === 0 ? (
        <EmptyState icon={Activity} title={`No tool calls in the last ${RANGE_LABELS[report.range]}`}>
          Calls made through this {scopeLabel}&apos;s MCP servers appear here within a few seconds: give a client a server&apos;s URL and an API key, or try a tool on a server&apos;s page.
        </EmptyState>
      ) : (
        <>
          <Totals report={report} />
          <Card aria-labelledby="usage-over-time">
            <CardHeader>
              <CardTitle id="usage-over-time">Calls and error rate</CardTitle>
              <CardDescription>Per {report.stepSeconds >= 86_400 ? "day" : report.stepSeconds > 3600 ? "6 hours" : "hour"}, last {RANGE_LABELS[report.range]}.</CardDescription>
            </CardHeader>
            <CardContent>
              <UsageChart series={report.series} stepSeconds={report.stepSeconds} label={`Bar chart of ${report.totals.calls} calls over the last ${RANGE_LABELS[report.range]}, with the error rate as a line`} />
            </CardContent>
          </Card>
          <FailingTools report={report} />
          <Section id="usage-servers" title="MCP servers" rows={report.servers} />
          <Section id="usage-connectors" title="Connectors" rows={report.connectors} />
          <Section id="usage-tools" title="Tools" rows={report.tools.map((t) => ({ ...t, name: t.tool, detail: t.connectorName }))} />
          <Section id="usage-users" title="Users" rows={report.users} />
        </>
      )}
    </div>
  );
}

function RangeLinks({ current, basePath }: { current: UsageRange; basePath: string }) {
  return (
    <nav aria-label="Period" className="inline-flex w-fit flex-wrap items-center gap-1 rounded-md bg-zinc-100 p-1 dark:bg-zinc-800">
      {USAGE_RANGES.map((range) => (
        <Link
          key={range}
          href={`${basePath}?range=${range}`}
          aria-current={range === current ? "page" : undefined}
          className={cn(
            "rounded px-3 py-1 text-sm font-medium text-zinc-600 dark:text-zinc-400",
            range === current && "bg-white text-zinc-900 shadow-sm dark:bg-zinc-950 dark:text-zinc-100",
            focusRing,
          )}
        >
          {RANGE_LABELS[range]}
        </Link>
      ))}
    </nav>
  );
}

function Totals({ report }: { report: UsageReport }) {
  const { totals } = report;
  const items = [
    { label: "Calls", value: formatCount(totals.calls) },
    { label: "Error rate", value: formatRate(totals.errorRate), note: `${formatCount(totals.errors)} errors` },
    { label: "p50 latency", value: formatMs(totals.p50Ms) },
    { label: "p95 latency", value: formatMs(totals.p95Ms) },
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {items.map((item) => (
        <div key={item.label} className="rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900">
          <dt className="text-xs font-semibold tracking-wide text-zinc-600 uppercase dark:text-zinc-400">{item.label}</dt>
          <dd className="mt-1 text-2xl font-semibold tabular-nums" data-testid={`usage-total-${item.label.toLowerCase().replace(/\s+/g, "-")}`}>
            {item.value}
          </dd>
          {item.note && <dd className="text-xs text-zinc-600 dark:text-zinc-400">{item.note}</dd>}
        </div>
      ))}
    </dl>
  );
}

function FailingTools({ report }: { report: UsageReport }) {
  return (
    <Card aria-labelledby="usage-failing">
      <CardHeader>
        <CardTitle id="usage-failing">Top failing tools</CardTitle>
        <CardDescription>Most errors first, with the latest error message (secrets removed).</CardDescription>
      </CardHeader>
      <CardContent>
        {report.failingTools.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">No tool failed in this period.</p>
        ) : (
          <ol className="grid gap-3">
            {report.failingTools.map((t) => (
              <li key={t.id} className="grid gap-1 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
                <p className="flex flex-wrap items-baseline gap-x-2 text-sm">
                  <span className="font-mono font-medium break-all">{t.tool}</span>
                  <span className="text-zinc-600 dark:text-zinc-400">{t.connectorName}</span>
                  <span className="ml-auto tabular-nums">
                    {formatCount(t.errors)} of {formatCount(t.calls)} calls failed ({formatRate(t.errorRate)})
                  </span>
                </p>
                {t.lastError && <p className="text-sm break-words text-red-800 dark:text-red-300">{t.lastError}</p>}
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}

function Section({ id, title, rows }: { id: string; title: string; rows: UsageTableRow[] }) {
  return (
    <section aria-labelledby={id} className="grid gap-2">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      <UsageTable rows={rows} caption={`Usage per ${title.toLowerCase()}`} />
    </section>
  );
}
