"use client";

import { useOptimistic, useTransition } from "react";
import { Switch } from "@/components/ui/switch";
import { applyResult } from "@/components/forms/apply-result";
import { updateSkillAction } from "@/app/(admin)/w/[workspaceId]/skills/actions";

/** Apply / unapply in place (optimistic; reverts if the server refuses). */
export function AppliedSwitch({ skill }: { skill: { id: string; name: string; applied: boolean } }) {
  const [pending, startTransition] = useTransition();
  const [applied, show] = useOptimistic(skill.applied);
  const toggle = (next: boolean) =>
    startTransition(async () => {
      show(next);
      applyResult(await updateSkillAction(skill.id, { applied: next }), { success: `${skill.name} ${next ? "applied" : "unapplied"}` });
    });
  return <Switch checked={applied} onCheckedChange={toggle} disabled={pending} aria-label={`Apply ${skill.name}`} />;
}
