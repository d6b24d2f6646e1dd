"use client";

import { useTransition } from "react";
import { Link2, Unplug } from "lucide-react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { applyResult } from "@/components/forms/apply-result";
import { disconnectMyConnectionAction, removeConnectionAction, startConnectionAction } from "@/app/(admin)/me/connections/actions";

/** Connect or reconnect: on to the upstream's sign-in and consent, then back to `returnTo`. */
export function ConnectButton({ connectorId, connectorName, label, returnTo, variant = "primary" }: { connectorId: string; connectorName: string; label: string; returnTo: string; variant?: "primary" | "secondary" }) {
  const [pending, startTransition] = useTransition();
  const connect = () =>
    startTransition(async () => {
      const result = await startConnectionAction(connectorId, returnTo);
      if (applyResult(result)) window.location.assign(result.data.authorizationUrl);
    });
  return (
    <Button type="button" size="sm" variant={variant} onClick={connect} disabled={pending} aria-label={`${label} ${connectorName}`}>
      <Link2 aria-hidden />
      {pending ? "Opening…" : label}
    </Button>
  );
}

/**
 * Disconnect (asks first). `asAdmin`: an owner's or admin's removal of any connection of the
 * organization (the connector's list, or a shared connection another admin made).
 */
export function DisconnectButton({ connectionId, connectorName, whose, asAdmin, label = "Disconnect" }: { connectionId: string; connectorName: string; whose: string; asAdmin: boolean; label?: string }) {
  return (
    <ConfirmDialog
      trigger={
        <Button type="button" variant="ghost" size="sm" aria-label={`${label} ${whose} from ${connectorName}`}>
          <Unplug aria-hidden />
          {label}
        </Button>
      }
      title={`${label} ${whose} from ${connectorName}?`}
      description="Its tokens are deleted here and revoked at the upstream where it offers revocation. Calls through this connection stop until someone connects again."
      confirmLabel={label}
      pendingLabel={`${label === "Remove" ? "Removing" : "Disconnecting"}…`}
      onConfirm={async () => {
        const result = await (asAdmin ? removeConnectionAction(connectionId) : disconnectMyConnectionAction(connectionId));
        return applyResult(result, { success: `${connectorName}: disconnected` });
      }}
    />
  );
}
