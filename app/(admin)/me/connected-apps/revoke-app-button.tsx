"use client";

import { Ban } from "lucide-react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { applyResult } from "@/components/forms/apply-result";
import { revokeConnectedAppAction } from "@/app/(admin)/me/connected-apps/actions";

export function RevokeAppButton({ app }: { app: { id: string; clientName: string } }) {
  return (
    <ConfirmDialog
      trigger={
        <Button type="button" variant="ghost" size="sm" aria-label={`Revoke ${app.clientName}`}>
          <Ban aria-hidden />
          Revoke
        </Button>
      }
      title={`Revoke ${app.clientName}?`}
      description="It stops reaching these servers on its next request. To connect again it must ask for your consent again."
      confirmLabel="Revoke app"
      pendingLabel="Revoking…"
      onConfirm={async () => applyResult(await revokeConnectedAppAction(app.id), { success: `${app.clientName} revoked` })}
    />
  );
}
