"use client";

import { AlertDialog } from "radix-ui";
import { type ReactNode, useState, useTransition } from "react";
import { Button, buttonVariants } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { overlayClass, panelClass } from "@/components/ui/dialog";

interface ConfirmDialogProps {
  /** The element that opens the dialog (usually a Button); none when `open` is controlled. */
  trigger?: ReactNode;
  /** Controlled: open it after a check of one's own (a form's submit), closed through onOpenChange. */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  pendingLabel?: string;
  /** Runs the destructive action; return false to keep the dialog open (e.g. it failed). */
  onConfirm: () => Promise<boolean | void>;
}

/**
 * Asks before anything destructive. Cancel has the initial focus, Escape cancels, and the
 * confirm button says what it is working on while the action runs.
 */
export function ConfirmDialog({ trigger, title, description, confirmLabel, pendingLabel, onConfirm, ...controlled }: ConfirmDialogProps) {
  const [own, setOwn] = useState(false);
  const open = controlled.open ?? own;
  const setOpen = controlled.onOpenChange ?? setOwn;
  const [pending, startTransition] = useTransition();
  const confirm = () =>
    startTransition(async () => {
      const keepOpen = (await onConfirm()) === false;
      if (!keepOpen) setOpen(false);
    });
  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !pending && setOpen(next)}>
      {trigger && <AlertDialog.Trigger asChild>{trigger}</AlertDialog.Trigger>}
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={overlayClass} />
        <AlertDialog.Content className={cn(panelClass, "max-w-md")}>
          <AlertDialog.Title className="text-lg font-semibold">{title}</AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="text-sm text-zinc-600 dark:text-zinc-400">{description}</div>
          </AlertDialog.Description>
          <div className="flex justify-end gap-2">
            <AlertDialog.Cancel className={buttonVariants({ variant: "outline" })} disabled={pending}>
              Cancel
            </AlertDialog.Cancel>
            <Button type="button" variant="destructive" onClick={confirm} disabled={pending} aria-disabled={pending}>
              {pending ? (pendingLabel ?? "Working…") : confirmLabel}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
