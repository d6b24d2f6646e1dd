"use client";

import { useOptimistic, useTransition } from "react";
import { UserMinus } from "lucide-react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Select } from "@/components/ui/select";
import { applyResult } from "@/components/forms/apply-result";
import { removeWorkspaceMemberAction, updateWorkspaceMemberAction } from "@/app/(admin)/w/[workspaceId]/members/actions";

interface RoleOption {
  id: string;
  name: string;
}

export function McpRoleSelect({ workspaceId, member, roles }: { workspaceId: string; member: { userId: string; label: string; mcpRoleId: string | null }; roles: RoleOption[] }) {
  const [pending, startTransition] = useTransition();
  const [shown, show] = useOptimistic(member.mcpRoleId ?? "");
  const change = (value: string) =>
    startTransition(async () => {
      show(value);
      const name = roles.find((r) => r.id === value)?.name;
      applyResult(await updateWorkspaceMemberAction(workspaceId, member.userId, { mcpRoleId: value || null }), {
        success: name ? `${member.label} now has the role ${name}` : `${member.label} has no MCP role now`,
      });
    });
  return (
    <Select aria-label={`MCP role of ${member.label}`} value={shown} disabled={pending} aria-busy={pending} onChange={(e) => change(e.target.value)} className="h-9 w-56">
      <option value="">No role</option>
      {roles.map((r) => (
        <option key={r.id} value={r.id}>
          {r.name}
        </option>
      ))}
    </Select>
  );
}

export function RemoveWorkspaceMemberButton({ workspaceId, member }: { workspaceId: string; member: { userId: string; label: string } }) {
  return (
    <ConfirmDialog
      trigger={
        <Button variant="ghost" size="sm" aria-label={`Remove ${member.label} from the workspace`}>
          <UserMinus aria-hidden />
          Remove
        </Button>
      }
      title={`Remove ${member.label} from this workspace?`}
      description="They stay in the organization. Every API key they hold in this workspace is revoked at once."
      confirmLabel="Remove from workspace"
      pendingLabel="Removing…"
      onConfirm={async () => applyResult(await removeWorkspaceMemberAction(workspaceId, member.userId), { success: `${member.label} removed from the workspace` })}
    />
  );
}
