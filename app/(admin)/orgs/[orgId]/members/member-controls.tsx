"use client";

import { useOptimistic, useTransition } from "react";
import { UserMinus } from "lucide-react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Select } from "@/components/ui/select";
import { applyResult } from "@/components/forms/apply-result";
import { removeOrgMemberAction, updateOrgMemberAction } from "@/app/(admin)/orgs/[orgId]/members/actions";

type Role = "owner" | "admin" | "member";

export function OrgRoleSelect({ orgId, member, canGrantOwner }: { orgId: string; member: { userId: string; label: string; role: Role }; canGrantOwner: boolean }) {
  const [pending, startTransition] = useTransition();
  const [shownRole, showRole] = useOptimistic(member.role);
  const change = (role: Role) =>
    startTransition(async () => {
      showRole(role);
      applyResult(await updateOrgMemberAction(orgId, member.userId, { role }), { success: `${member.label} is now ${role === "admin" ? "an" : "a"} ${role}` });
    });
  // Only owners grant or take away the owner role; the select says so instead of failing later.
  const locked = !canGrantOwner && member.role === "owner";
  return (
    <Select
      aria-label={`Role of ${member.label}`}
      value={shownRole}
      disabled={pending || locked}
      aria-busy={pending}
      onChange={(e) => change(e.target.value as Role)}
      className="h-9 w-36"
    >
      <option value="owner" disabled={!canGrantOwner}>
        Owner
      </option>
      <option value="admin">Admin</option>
      <option value="member">Member</option>
    </Select>
  );
}

export function RemoveOrgMemberButton({ orgId, member }: { orgId: string; member: { userId: string; label: string } }) {
  return (
    <ConfirmDialog
      trigger={
        <Button variant="ghost" size="sm" aria-label={`Remove ${member.label}`}>
          <UserMinus aria-hidden />
          Remove
        </Button>
      }
      title={`Remove ${member.label}?`}
      description="They leave the organization and each of its workspaces, and every API key they hold in it is revoked at once."
      confirmLabel="Remove member"
      pendingLabel="Removing…"
      onConfirm={async () => applyResult(await removeOrgMemberAction(orgId, member.userId), { success: `${member.label} removed` })}
    />
  );
}
