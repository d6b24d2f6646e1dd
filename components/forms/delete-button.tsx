"use client";

import { useRouter } from "next/navigation";
import { Trash2 } from "lucide-react";
import type { ActionResult } from "@/components/forms/action-result";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { applyResult } from "@/components/forms/apply-result";

interface DeleteButtonProps {
  /** The button's and the confirm button's text, e.g. "Delete server". */
  label: string;
  /** The thing's name, for the dialog's title. */
  name: string;
  description: string;
  /** The success toast. */
  success: string;
  action: () => Promise<ActionResult<unknown>>;
  /** Where to go once it is deleted; the navigation is refreshed too, as it may list it. */
  redirectTo: string;
}

/** Deletes a thing after a confirm dialog, then leaves its (now gone) page. */
export function DeleteButton({ label, name, description, success, action, redirectTo }: DeleteButtonProps) {
  const router = useRouter();
  return (
    <ConfirmDialog
      trigger={
        <Button variant="destructive">
          <Trash2 aria-hidden />
          {label}
        </Button>
      }
      title={`Delete ${name}?`}
      description={description}
      confirmLabel={label}
      pendingLabel="Deleting…"
      onConfirm={async () => {
        if (!applyResult(await action(), { success })) return false;
        router.push(redirectTo);
        router.refresh();
      }}
    />
  );
}
