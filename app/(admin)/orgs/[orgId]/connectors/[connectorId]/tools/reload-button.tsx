"use client";

import { useTransition } from "react";
import { RefreshCw } from "lucide-react";
import { Button } from "@/components/ui/button";
import { applyResult } from "@/components/forms/apply-result";
import { reloadConnectorAction } from "@/app/(admin)/orgs/[orgId]/connectors/actions";
import { plural } from "@/components/ui/plural";

/** Re-discovers the upstream's tools; an unreachable upstream leaves the connector as it was. */
export function ReloadToolsButton({ connectorId }: { connectorId: string }) {
  const [pending, startTransition] = useTransition();
  const reload = () =>
    startTransition(async () => {
      const result = await reloadConnectorAction(connectorId);
      applyResult(result, { success: result.ok ? `Reloaded: ${plural(result.data.tools.length, "tool")}, protocol ${result.data.protocolVersion ?? "unknown"}` : undefined });
    });
  return (
    <Button type="button" variant="outline" onClick={reload} disabled={pending} aria-busy={pending}>
      <RefreshCw aria-hidden className={pending ? "animate-spin" : undefined} />
      {pending ? "Discovering tools…" : "Reload tools"}
    </Button>
  );
}
