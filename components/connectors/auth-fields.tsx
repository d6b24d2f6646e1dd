"use client";

import { useFormContext, useWatch, type UseFormReturn } from "react-hook-form";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { RadioCard, RadioCardGroup } from "@/components/ui/radio-card";
import { errorAt } from "@/components/forms/form-alert";
import type { AuthFieldsInput } from "@/components/connectors/auth-form-model";
import type { ConnectorAuth } from "@/lib/connectors/upstream-auth/auth-schemas";

type AuthForm = { auth: AuthFieldsInput };
type Choice = { value: string; label: string; hint: string };

const METHODS: Choice[] = [
  { value: "headers", label: "Secret headers", hint: "The secret headers go with every request (an API key, say), or nothing does." },
  { value: "oauth", label: "OAuth", hint: "People sign in to the upstream; calls carry their token, or one shared account's." },
  { value: "client_credentials", label: "Client credentials", hint: "Machine to machine: a token for the client's ID and secret, renewed before it expires." },
];
const CONNECTIONS: Choice[] = [
  { value: "per_user", label: "Each person connects their own account", hint: "Calls act upstream as the calling person." },
  { value: "shared", label: "One shared account", hint: "An owner or admin connects it; every call uses it." },
];

/** One of the form's radio groups (METHODS or CONNECTIONS), bound to its field. */
function RadioCards({ form, name, legend, choices }: { form: UseFormReturn<AuthForm>; name: "auth.type" | "auth.connection"; legend: string; choices: Choice[] }) {
  return (
    <RadioCardGroup legend={legend} className="sm:grid-cols-3">
      {choices.map((choice) => (
        <RadioCard
          key={choice.value}
          value={choice.value}
          // Checked in the server-rendered HTML too, before the form library takes over.
          defaultChecked={choice.value === form.formState.defaultValues?.auth?.[name === "auth.type" ? "type" : "connection"]}
          {...form.register(name)}
        >
          <span className="grid gap-0.5">
            <span className="font-medium">{choice.label}</span>
            <span className="text-xs text-zinc-600 dark:text-zinc-400">{choice.hint}</span>
          </span>
        </RadioCard>
      ))}
    </RadioCardGroup>
  );
}

interface AuthFieldsProps {
  connectorType: "http" | "mcp";
  /** On edit: the stored auth, whose client secret (if set) is kept when the field stays empty. */
  stored?: ConnectorAuth;
}

/** How requests to the upstream authenticate: the `auth` fields of a connector form (in a FormProvider). */
export function AuthFields({ connectorType, stored }: AuthFieldsProps) {
  const form = useFormContext<AuthForm>();
  const type = useWatch({ control: form.control, name: "auth.type" });
  const text = (key: keyof AuthFieldsInput, label: string, opts: { hint?: string; placeholder?: string; url?: boolean; secret?: boolean } = {}) => (
    <Field key={key} id={`connector-auth-${key}`} label={label} hint={opts.hint} error={errorAt(form, `auth.${key}`)}>
      {(control) => (
        <Input
          {...control}
          {...form.register(`auth.${key}`)}
          type={opts.secret ? "password" : opts.url ? "url" : "text"}
          autoComplete={opts.secret ? "new-password" : "off"}
          spellCheck={false}
          className={opts.secret ? undefined : "font-mono"}
          placeholder={opts.placeholder}
        />
      )}
    </Field>
  );
  const clientId = useWatch({ control: form.control, name: "auth.clientId" });
  const secretStored = stored !== undefined && stored.type === type && "hasClientSecret" in stored && stored.hasClientSecret === true;
  // The API drops an OAuth secret whose client ID is cleared or changed (auth-settings.ts): say so rather than "keep".
  const storedClientId = stored !== undefined && stored.type === "oauth" && "clientId" in stored ? stored.clientId : undefined;
  const secretDropped = secretStored && type === "oauth" && (clientId?.trim() || undefined) !== storedClientId;
  const secretKept = secretStored && !secretDropped;
  const secret = (required: boolean) =>
    text("clientSecret", required && !secretKept ? "Client secret" : "Client secret (optional)", {
      secret: true,
      placeholder: secretKept ? "set — leave empty to keep" : undefined,
      hint: secretKept
        ? "Set — leave empty to keep it; stored encrypted, never shown."
        : secretDropped
          ? "The stored secret belongs to the stored client ID: saving with another client ID, or none, removes it unless you enter a new secret."
          : "Stored encrypted; nobody can read it back.",
    });
  return (
    <fieldset className="grid gap-4">
      <legend className="mb-1 text-sm font-medium text-zinc-800 dark:text-zinc-200">Authentication</legend>
      <RadioCards form={form} name="auth.type" legend="How requests to the upstream authenticate" choices={METHODS} />
      {type === "oauth" && (
        <div className="grid gap-4">
          <RadioCards form={form} name="auth.connection" legend="Connection" choices={CONNECTIONS} />
          <div className="grid gap-4 sm:grid-cols-2">
            {text("clientId", "Client ID (optional)", { hint: "A client registered with the upstream's authorization server. Empty: Switchboard registers itself." })}
            {secret(false)}
          </div>
          {text("scopes", "Scopes (optional)", { hint: "Separated by spaces; they replace the scopes the upstream suggests (least privilege).", placeholder: "repo read:user" })}
          {connectorType === "http" ? (
            <div className="grid gap-4">
              {text("authorizationServer", "Authorization server issuer URL", { url: true, hint: "An issuer that publishes OAuth or OpenID metadata. Or leave it empty and give both endpoints below.", placeholder: "https://auth.example.com" })}
              <div className="grid gap-4 sm:grid-cols-2">
                {text("authorizationEndpoint", "Authorization endpoint", { url: true, placeholder: "https://auth.example.com/authorize" })}
                {text("tokenEndpoint", "Token endpoint", { url: true, placeholder: "https://auth.example.com/token" })}
              </div>
            </div>
          ) : (
            <p className="text-xs text-zinc-600 dark:text-zinc-400">The authorization server is discovered from the MCP server (its protected-resource metadata).</p>
          )}
        </div>
      )}
      {type === "client_credentials" && (
        <div className="grid gap-4">
          {text("tokenUrl", "Token URL", { url: true, placeholder: "https://auth.example.com/oauth/token" })}
          <div className="grid gap-4 sm:grid-cols-2">
            {text("clientId", "Client ID")}
            {secret(true)}
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            {text("scopes", "Scopes (optional)", { hint: "Separated by spaces." })}
            {text("audience", "Audience (optional)", { hint: "For token servers that ask which API the token is for." })}
          </div>
        </div>
      )}
      {type !== "headers" && <p className="text-xs text-zinc-600 dark:text-zinc-400">Secret headers still go out beside the token, except Authorization, which the token owns.</p>}
    </fieldset>
  );
}
