import Link from "next/link";
import { HealthBadge } from "@/components/connectors/health-badge";
import type { ConnectorHealth } from "@/lib/connector-health/schemas";

/** The health of a server's connectors, each linking to its health page (where it can be tested). */
export function AssignedConnectorHealth({ orgId, connectors }: { orgId: string; connectors: Array<{ id: string; name: string; health: ConnectorHealth }> }) {
  if (connectors.length === 0) return null;
  return (
    <section aria-labelledby="connector-health-title" className="mt-4 grid gap-2 border-t border-zinc-200 pt-4 dark:border-zinc-800">
      <h3 id="connector-health-title" className="text-sm font-semibold">
        Connector health
      </h3>
      <ul className="grid gap-2">
        {connectors.map((c) => (
          // Sized by the list, not by the name it cuts short: a long name must not widen a phone's page.
          <li key={c.id} className="flex flex-wrap items-center gap-2 text-sm [contain:inline-size]">
            <HealthBadge health={c.health} />
            <Link href={`/orgs/${orgId}/connectors/${c.id}/health`} className="min-w-0 truncate underline-offset-2 hover:underline">
              {c.name}
            </Link>
            {c.health.status === "failing" && c.health.lastFailureMessage && (
              <span className="w-full text-xs break-words text-red-800 dark:text-red-300">{c.health.lastFailureMessage}</span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
