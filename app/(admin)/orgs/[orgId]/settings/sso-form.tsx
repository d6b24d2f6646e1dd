"use client";

import { useState } from "react";
import { useForm } from "react-hook-form";
import { FormAlert } from "@/components/forms/form-alert";
import { applyResult } from "@/components/forms/apply-result";
import { DeleteButton } from "@/components/forms/delete-button";
import { SaveButton } from "@/components/forms/save-button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { CodeBlock } from "@/components/ui/code-block";
import { cn } from "@/components/ui/cn";
import { focusRing } from "@/components/ui/focus-ring";
import type { SsoSettingsView } from "@/lib/sso/sso-connections";
import { deleteOrgSsoAction, saveOrgSsoAction } from "@/app/(admin)/orgs/[orgId]/settings/sso-actions";
import { SsoDomains } from "@/app/(admin)/orgs/[orgId]/settings/sso-domains";

interface SsoFormValues {
  issuer: string;
  clientId: string;
  clientSecret: string;
  domains: string;
  joinNewUsers: boolean;
  acceptEmailWithoutVerifiedClaim: boolean;
  enabled: boolean;
}

function valuesOf(sso: SsoSettingsView | null): SsoFormValues {
  return {
    issuer: sso?.issuer ?? "",
    clientId: sso?.clientId ?? "",
    clientSecret: "",
    domains: sso?.domains.join(", ") ?? "",
    joinNewUsers: sso?.joinNewUsers ?? false,
    acceptEmailWithoutVerifiedClaim: sso?.acceptEmailWithoutVerifiedClaim ?? false,
    enabled: sso?.enabled ?? true,
  };
}

function CheckboxRow({ id, label, hint, ...input }: { id: string; label: string; hint: string } & React.ComponentProps<"input">) {
  return (
    <label htmlFor={id} className="flex items-start gap-2 text-sm">
      <input id={id} type="checkbox" className={cn("mt-0.5 accent-sky-600", focusRing)} {...input} />
      <span className="grid gap-0.5">
        <span className="font-medium">{label}</span>
        <span className="text-xs text-zinc-600 dark:text-zinc-400">{hint}</span>
      </span>
    </label>
  );
}

/** The organization's OIDC provider: people of its email domains sign in there. */
export function SsoForm({ orgId, sso, redirectUri }: { orgId: string; sso: SsoSettingsView | null; redirectUri: string }) {
  const form = useForm<SsoFormValues>({ defaultValues: valuesOf(sso) });
  const [verifications, setVerifications] = useState(sso?.domainVerifications ?? []);
  const errors = form.formState.errors;
  const onSubmit = form.handleSubmit(async (values) => {
    const domains = values.domains.split(/[\s,]+/).filter(Boolean);
    const body = { ...values, domains, clientSecret: values.clientSecret || undefined };
    const result = await saveOrgSsoAction(orgId, body);
    const saved = applyResult(result, { form, success: "Single sign-on saved", mapPath: (path) => path.split(".")[0] });
    if (saved) {
      form.reset(valuesOf(result.data));
      setVerifications(result.data.domainVerifications);
    }
  });
  return (
    <div className="grid gap-4">
      <CodeBlock code={redirectUri} label="Redirect URI to register at your identity provider" />
      <form onSubmit={onSubmit} className="grid gap-4" noValidate>
        <FormAlert form={form} />
        <Field id="sso-issuer" label="Issuer URL" hint="Its OpenID configuration is read from <issuer>/.well-known/openid-configuration." error={errors.issuer?.message}>
          {(control) => <Input {...control} type="url" placeholder="https://login.example.com" {...form.register("issuer")} />}
        </Field>
        <Field id="sso-client-id" label="Client ID" error={errors.clientId?.message}>
          {(control) => <Input {...control} autoComplete="off" {...form.register("clientId")} />}
        </Field>
        <Field id="sso-client-secret" label="Client secret" hint={sso ? "Stored encrypted. Leave empty to keep the current secret." : "Stored encrypted; never shown again."} error={errors.clientSecret?.message}>
          {(control) => <Input {...control} type="password" autoComplete="new-password" {...form.register("clientSecret")} />}
        </Field>
        <Field id="sso-domains" label="Email domains" hint="Comma-separated, e.g. example.com, example.org. Each new domain is verified by a DNS TXT record before it signs anyone in." error={errors.domains?.message}>
          {(control) => <Input {...control} placeholder="example.com" {...form.register("domains")} />}
        </Field>
        <CheckboxRow id="sso-join" label="New people join as members" hint="Someone of these domains without an account becomes a member on first sign-in. Unchecked, they are refused until an admin invites them." {...form.register("joinNewUsers")} />
        <CheckboxRow
          id="sso-accept-unstated"
          label="Accept sign-ins without an email_verified claim"
          hint="For providers that never send it, such as Entra ID. Unchecked, the provider must say the email is verified; one it calls unverified is always refused."
          {...form.register("acceptEmailWithoutVerifiedClaim")}
        />
        <CheckboxRow id="sso-enabled" label="Single sign-on is on" hint="Turned off, nobody can sign in through this provider; the settings are kept." {...form.register("enabled")} />
        <SaveButton form={form} />
      </form>
      <SsoDomains orgId={orgId} domains={verifications} onVerified={(next) => setVerifications(next.domainVerifications)} />
      {sso && (
        <DeleteButton
          label="Remove single sign-on"
          name="single sign-on"
          description="People of these domains can no longer sign in through the provider. Their accounts stay."
          success="Single sign-on removed"
          action={() => deleteOrgSsoAction(orgId)}
          redirectTo={`/orgs/${orgId}/settings`}
        />
      )}
    </div>
  );
}
