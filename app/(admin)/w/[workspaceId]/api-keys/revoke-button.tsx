"use client";

import { Ban } from "lucide-react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { applyResult } from "@/components/forms/apply-result";
import { revokeApiKeyAction } from "@/app/(admin)/w/[workspaceId]/api-keys/actions";

export function RevokeApiKeyButton({ apiKey }: { apiKey: { id: string; name: string; prefix: string } }) {
  return (
    <ConfirmDialog
      trigger={
        <Button type="button" variant="ghost" size="sm" aria-label={`Revoke ${apiKey.name}`}>
          <Ban aria-hidden />
          Revoke
        </Button>
      }
      title={`Revoke ${apiKey.name}?`}
      description={
        <>
          The key <code className="font-mono">{apiKey.prefix}…</code> stops working on its next request. Clients using it must get a new key. This cannot be undone.
        </>
      }
      confirmLabel="Revoke key"
      pendingLabel="Revoking…"
      onConfirm={async () => applyResult(await revokeApiKeyAction(apiKey.id), { success: `Key "${apiKey.name}" revoked` })}
    />
  );
}
