"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { FormAlert, errorAt } from "@/components/forms/form-alert";
import { applyResult } from "@/components/forms/apply-result";
import { WorkspaceCheckboxes } from "@/components/forms/workspace-checkboxes";
import { CreateInvitationBody } from "@/lib/invitations/schemas";
import { inviteByEmailAction } from "@/app/(admin)/orgs/[orgId]/members/actions";

type Sent = { email: string; acceptUrl: string; emailSent: boolean };

/** Invite by email with a role and workspaces; the link is emailed (SMTP configured) or shown here to pass on. */
export function InviteForm({ orgId, workspaces, canGrantOwner }: { orgId: string; workspaces: { id: string; name: string }[]; canGrantOwner: boolean }) {
  const [sent, setSent] = useState<Sent | null>(null);
  const form = useForm({ resolver: zodResolver(CreateInvitationBody), defaultValues: { email: "", role: "member" as const, workspaceIds: [] as string[] } });
  const onSubmit = form.handleSubmit(async (values) => {
    const result = await inviteByEmailAction(orgId, values);
    const success = result.ok && result.data.emailSent ? `Invitation emailed to ${values.email}` : `${values.email} invited: copy the link below to them`;
    if (applyResult(result, { form, success })) {
      setSent({ email: result.data.email, acceptUrl: result.data.acceptUrl, emailSent: result.data.emailSent });
      form.reset({ email: "", role: values.role, workspaceIds: [] });
    }
  });
  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      <FormAlert form={form} />
      {sent && (
        <Alert tone="info" className="grid min-w-0 gap-2">
          <span>{sent.emailSent ? `The invitation link was emailed to ${sent.email}. You can also pass it on yourself:` : `No email is sent (SMTP is not configured): send ${sent.email} this link. It is shown only now and works once.`}</span>
          <span className="flex min-w-0 flex-wrap items-center gap-2">
            <code className="min-w-0 font-mono text-xs break-all" data-testid="invitation-link">{sent.acceptUrl}</code>
            <CopyButton value={sent.acceptUrl} label="Copy link" />
          </span>
        </Alert>
      )}
      <Field id="invite-email" label="Email to invite" error={errorAt(form, "email")}>
        {(control) => <Input {...control} {...form.register("email")} type="email" autoComplete="off" />}
      </Field>
      <Field id="invite-role" label="Organization role" error={errorAt(form, "role")}>
        {(control) => (
          <Select {...control} {...form.register("role")} className="h-9 w-40">
            <option value="member">Member</option>
            <option value="admin">Admin</option>
            {canGrantOwner && <option value="owner">Owner</option>}
          </Select>
        )}
      </Field>
      <WorkspaceCheckboxes idPrefix="invite-ws" workspaces={workspaces} register={form.register("workspaceIds")} />
      <div>
        <Button type="submit" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? "Inviting…" : "Send invitation"}
        </Button>
      </div>
    </form>
  );
}
