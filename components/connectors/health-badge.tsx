import { Badge } from "@/components/ui/badge";
import type { ConnectorHealth } from "@/lib/connector-health/schemas";

const LOOK = {
  healthy: { tone: "success", label: "Healthy" },
  failing: { tone: "danger", label: "Failing" },
  unknown: { tone: "neutral", label: "Not checked" },
} as const;

/** A connector's status: the latest call or test succeeded, failed, or none happened yet. */
export function HealthBadge({ health }: { health: Pick<ConnectorHealth, "status" | "lastFailureMessage"> }) {
  const look = LOOK[health.status];
  return (
    <Badge tone={look.tone} title={health.status === "failing" ? (health.lastFailureMessage ?? undefined) : undefined} data-health={health.status}>
      <span aria-hidden className="size-1.5 rounded-full bg-current" />
      {look.label}
    </Badge>
  );
}
