import { HealthBadge } from "@/components/connectors/health-badge";
import { formatMs } from "@/components/usage/format-usage";
import type { ConnectorHealth } from "@/lib/connector-health/schemas";

function When({ iso }: { iso: string | null }) {
  if (!iso) return <span className="text-zinc-500 dark:text-zinc-400">Never</span>;
  return <time dateTime={iso}>{iso.replace("T", " ").slice(0, 19)} UTC</time>;
}

/** What is known of a connector's upstream: from its tool calls and from "Test connection". */
export function ConnectorHealthDetails({ health }: { health: ConnectorHealth }) {
  return (
    <dl className="grid gap-3 text-sm sm:grid-cols-[12rem_1fr]">
      <dt className="font-medium">Status</dt>
      <dd>
        <HealthBadge health={health} />
      </dd>
      <dt className="font-medium">Last success</dt>
      <dd>
        <When iso={health.lastSuccessAt} />
        {health.lastLatencyMs !== null && <span className="ml-2 text-zinc-600 dark:text-zinc-400">in {formatMs(health.lastLatencyMs)}</span>}
      </dd>
      <dt className="font-medium">Last failure</dt>
      <dd className="grid gap-1">
        <When iso={health.lastFailureAt} />
        {health.lastFailureMessage && <span className="break-words text-red-800 dark:text-red-300">{health.lastFailureMessage}</span>}
      </dd>
      <dt className="font-medium">Last test</dt>
      <dd className="grid gap-1">
        {health.lastTest ? (
          <>
            <span>
              <When iso={health.lastTest.at} /> — {health.lastTest.ok ? "passed" : "failed"}
            </span>
            <span className="break-words text-zinc-600 dark:text-zinc-400">{health.lastTest.message}</span>
          </>
        ) : (
          <span className="text-zinc-500 dark:text-zinc-400">Not tested yet</span>
        )}
      </dd>
    </dl>
  );
}
