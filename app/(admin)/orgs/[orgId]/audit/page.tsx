import type { Metadata } from "next";
import { ScrollText } from "lucide-react";
import { PageHeader } from "@/components/ui/page-header";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Pagination } from "@/components/ui/pagination";
import { Select } from "@/components/ui/select";
import { Table, TBody, TD, TH, THead } from "@/components/ui/table";
import { requireOrgAdmin } from "@/app/(admin)/_lib/context";
import { type AuditEventView, listAuditEvents } from "@/lib/audit/list-audit-events";
import { AUDIT_ACTION_NAMES, AUDIT_ACTIONS } from "@/lib/audit/actions";
import { AuditQuery } from "@/lib/audit/schemas";
import { listOrgMembers } from "@/lib/orgs/members";

export const metadata: Metadata = { title: "Audit log" };

type Props = { params: Promise<{ orgId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const TARGET_TYPES = ["connector", "server", "mcp_role", "skill", "stored_resource", "api_key", "org", "workspace", "user", "file", "invitation"];
const FILTERS = ["action", "actorId", "targetType", "targetId", "tool", "outcome", "since", "until"] as const;
const OUTCOMES = [["ok", "Succeeded"], ["isError", "Tool error"], ["error", "Failed"], ["started", "Outcome unknown"]] as const;

/** A refused filter named as the form names it, not by its query parameter ("targetId"). */
const FILTER_LABELS: Record<string, string> = {
  action: "Action", actorId: "Actor", targetType: "Object type", targetId: "Object id", tool: "Tool", outcome: "Outcome", since: "From", until: "To", cursor: "Page",
};
const DAY_MESSAGE = "Enter a day, such as 2026-05-03.";

function filterProblems(issues: { path: PropertyKey[]; message: string }[]): string {
  return issues
    .map((i) => {
      const key = String(i.path[0]);
      return `${FILTER_LABELS[key] ?? key}: ${key === "since" || key === "until" ? DAY_MESSAGE : i.message}`;
    })
    .join(" ");
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;

/** The filters as typed (dates are UTC days), and the lib's query built from them. */
function readFilters(query: Record<string, string | string[] | undefined>) {
  const raw = Object.fromEntries(FILTERS.map((k) => [k, first(query[k])])) as Record<(typeof FILTERS)[number], string | undefined>;
  const parsed = AuditQuery.safeParse({
    cursor: first(query.cursor),
    limit: 50,
    action: raw.action,
    actorId: raw.actorId,
    targetType: raw.targetType,
    targetId: raw.targetId,
    tool: raw.tool,
    outcome: raw.outcome,
    since: raw.since ? `${raw.since}T00:00:00Z` : undefined,
    until: raw.until ? `${raw.until}T23:59:59.999Z` : undefined,
  });
  return { raw, parsed };
}

const OUTCOME_TONE = { ok: "success", isError: "warning", error: "danger" } as const;

/** A discovery's tools that wait for approval (issue 26 point 2), in words: "search (changed), export_all (new)". */
function waitingLine(e: AuditEventView): string | null {
  if (e.action !== "connector.reload") return null;
  const waiting = (e.data as { awaitingApproval?: unknown } | null)?.awaitingApproval;
  if (!Array.isArray(waiting) || waiting.length === 0) return null;
  return waiting.map((w: { tool?: unknown; change?: unknown }) => `${String(w.tool)} (${String(w.change)})`).join(", ");
}

/** A call in flight inline: the tool (prompt, resource), through which server, how it ended and how long it took. */
function ToolCallLine({ call, server }: { call: NonNullable<AuditEventView["toolCall"]>; server: string | null }) {
  const label = OUTCOMES.find(([v]) => v === call.outcome)?.[1] ?? call.outcome;
  return (
    <span className="mt-1 flex flex-wrap items-center gap-1 text-xs">
      <span className="font-mono">{call.tool}</span>
      {server && <span className="text-zinc-500 dark:text-zinc-400">on {server}</span>}
      <Badge tone={OUTCOME_TONE[call.outcome as keyof typeof OUTCOME_TONE] ?? "neutral"}>{label}</Badge>
      {call.durationMs !== null && <span className="tabular-nums text-zinc-500 dark:text-zinc-400">{call.durationMs} ms</span>}
    </span>
  );
}

/** The trace of the request that wrote the event, to look up in the tracing backend. */
function TraceIdLine({ traceId }: { traceId: string }) {
  return (
    <span className="mt-1 flex flex-wrap items-center gap-1 text-xs">
      <span className="text-zinc-500 dark:text-zinc-400">Trace id</span>
      <code className="font-mono break-all select-all">{traceId}</code>
      <CopyButton value={traceId} label="Copy" aria-label="Copy trace id" className="h-6 px-2 text-xs" />
    </span>
  );
}

/** What the event recorded and the trace of its request, behind "Show" (nothing when it has neither). */
function EventDetails({ event }: { event: AuditEventView }) {
  const hasData = event.data !== null && event.data !== undefined;
  if (!hasData && !event.traceId) return null;
  return (
    <details>
      <summary className="cursor-pointer text-xs">Show</summary>
      {event.traceId && <TraceIdLine traceId={event.traceId} />}
      {hasData && (
        <pre tabIndex={0} className="mt-1 max-h-60 overflow-auto rounded [contain:inline-size] bg-zinc-50 p-2 font-mono text-xs dark:bg-zinc-950">
          {JSON.stringify(event.data, null, 2)}
        </pre>
      )}
    </details>
  );
}

export default async function AuditPage({ params, searchParams }: Props) {
  const { org, caller } = await requireOrgAdmin((await params).orgId);
  const query = await searchParams;
  const { raw, parsed } = readFilters(query);
  const [page, members] = await Promise.all([
    parsed.success ? listAuditEvents(caller, org.id, parsed.data) : null,
    listOrgMembers(caller, org.id, { limit: 200 }),
  ]);
  const filtered = FILTERS.some((k) => raw[k]);
  const exportQuery = new URLSearchParams(Object.entries(parsed.success ? { ...parsed.data, cursor: undefined, limit: undefined } : {}).filter((e): e is [string, string] => typeof e[1] === "string"));
  const exportHref = (format: string) => `/api/v1/orgs/${org.id}/audit/export?${new URLSearchParams([...exportQuery, ["format", format]])}`;
  return (
    <div className="mx-auto grid max-w-6xl gap-6">
      <PageHeader title="Audit log" description="Who changed what in this organization, every tool call and every host-resource read, newest first." />
      <form method="get" className="grid gap-3 rounded-lg border border-zinc-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-4 dark:border-zinc-800 dark:bg-zinc-900">
        <div className="grid gap-1.5">
          <Label htmlFor="audit-actor">Actor</Label>
          <Select id="audit-actor" name="actorId" defaultValue={raw.actorId ?? ""}>
            <option value="">Anyone</option>
            {members.items.map((m) => (
              <option key={m.userId} value={m.userId}>
                {m.name ?? m.email}
              </option>
            ))}
          </Select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="audit-action">Action</Label>
          <Select id="audit-action" name="action" defaultValue={raw.action ?? ""}>
            <option value="">Any</option>
            {AUDIT_ACTION_NAMES.map((action) => (
              <option key={action} value={action}>
                {action} — {AUDIT_ACTIONS[action]}
              </option>
            ))}
          </Select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="audit-target-type">Object type</Label>
          <Select id="audit-target-type" name="targetType" defaultValue={raw.targetType ?? ""}>
            <option value="">Any</option>
            {TARGET_TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </Select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="audit-target-id">Object id</Label>
          <Input id="audit-target-id" name="targetId" defaultValue={raw.targetId} autoComplete="off" className="font-mono" maxLength={128} />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="audit-tool">Tool</Label>
          <Input id="audit-tool" name="tool" defaultValue={raw.tool} autoComplete="off" className="font-mono" maxLength={200} />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="audit-outcome">Outcome</Label>
          <Select id="audit-outcome" name="outcome" defaultValue={raw.outcome ?? ""}>
            <option value="">Any</option>
            {OUTCOMES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </Select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="audit-since">From (UTC day)</Label>
          <Input id="audit-since" name="since" type="date" defaultValue={raw.since} />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="audit-until">To (UTC day)</Label>
          <Input id="audit-until" name="until" type="date" defaultValue={raw.until} />
        </div>
        <div className="flex flex-wrap gap-2 sm:col-span-2 lg:col-span-4">
          <Button type="submit">Filter</Button>
          {parsed.success && (
            <>
              <Button asChild variant="outline">
                <a href={exportHref("csv")} download>
                  Export CSV
                </a>
              </Button>
              <Button asChild variant="outline">
                <a href={exportHref("jsonl")} download>
                  Export JSON Lines
                </a>
              </Button>
            </>
          )}
          {filtered && (
            <Button asChild variant="outline">
              <a href={`/orgs/${org.id}/audit`}>Clear filters</a>
            </Button>
          )}
        </div>
      </form>
      {!parsed.success && <Alert>These filters are not valid. {filterProblems(parsed.error.issues)}</Alert>}
      {page && page.items.length === 0 ? (
        <EmptyState icon={ScrollText} title={filtered ? "No event matches these filters" : "No events yet"}>
          {filtered ? "Widen the time range or clear a filter." : "Changes to the organization and tool calls appear here as they happen."}
        </EmptyState>
      ) : page ? (
        <div>
          <Table>
            <caption className="sr-only">Audit events of {org.name}, newest first</caption>
            <THead>
              <tr>
                <TH>When (UTC)</TH>
                <TH>Actor</TH>
                <TH>Action</TH>
                <TH>Object</TH>
                <TH>Details</TH>
              </tr>
            </THead>
            <TBody>
              {page.items.map((e) => (
                <tr key={e.id}>
                  <TD className="font-mono text-xs whitespace-nowrap">
                    <time dateTime={e.createdAt.toISOString()}>{e.createdAt.toISOString().replace("T", " ").slice(0, 19)}</time>
                  </TD>
                  <TD className="text-sm">
                    {e.names.actor ?? e.actorType}
                    {e.actorType === "api_key" && <Badge className="ml-1">API key</Badge>}
                    {e.actorType === "oauth_client" && <Badge className="ml-1">via {String((e.data as { oauthClientName?: unknown } | null)?.oauthClientName ?? "an app")}</Badge>}
                  </TD>
                  <TD>
                    <Badge tone={e.action === "tool.call" || e.action.startsWith("host_resources") ? "info" : "neutral"} className="font-mono">
                      {e.action}
                    </Badge>
                    {e.toolCall && <ToolCallLine call={e.toolCall} server={e.names.server} />}
                    {waitingLine(e) && <span className="mt-1 block text-xs break-all text-amber-800 dark:text-amber-300">Waiting for approval: {waitingLine(e)}</span>}
                  </TD>
                  <TD className="text-sm">
                    <span className="font-mono text-xs text-zinc-500 dark:text-zinc-400">{e.targetType}</span>
                    {e.names.target && <span className="block">{e.names.target}</span>}
                    {e.names.workspace && <span className="block text-xs text-zinc-500 dark:text-zinc-400">in {e.names.workspace}</span>}
                  </TD>
                  <TD className="max-w-80">
                    <EventDetails event={e} />
                  </TD>
                </tr>
              ))}
            </TBody>
          </Table>
          <Pagination
            basePath={`/orgs/${org.id}/audit`}
            nextCursor={page.nextCursor}
            isFirstPage={!first(query.cursor)}
            params={Object.fromEntries(FILTERS.map((k) => [k, raw[k]]))}
          />
        </div>
      ) : null}
    </div>
  );
}
