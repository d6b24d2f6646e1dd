"use client";

import type { ReactNode } from "react";
import { useFormContext } from "react-hook-form";
import { Card, CardContent } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { errorAt } from "@/components/forms/form-alert";
import { MarkdownField } from "@/components/forms/markdown-field";
import { SecretHeadersEditor } from "@/components/connectors/secret-headers-editor";
import { NAME_MAX_LENGTH } from "@/lib/schemas/common";

interface NewConnectorCardProps {
  namePlaceholder: string;
  /** The connector's URL field: `baseUrl` for http connectors, `url` for mcp ones. */
  url: { id: string; name: string; label: string; hint: string; placeholder: string };
  instructionsHint: string;
  /** Fields of this connector type, shown under the URL (an mcp connector's era and transport). */
  children?: ReactNode;
  /** The Authentication section, shown before the secret headers. */
  auth?: ReactNode;
}

/** What every new connector has: name, URL, authentication, secret headers and instructions (in a FormProvider). */
export function NewConnectorCard({ namePlaceholder, url, instructionsHint, children, auth }: NewConnectorCardProps) {
  const form = useFormContext();
  return (
    <Card>
      <CardContent className="grid gap-4 pt-6">
        <Field id="connector-name" label="Name" error={errorAt(form, "name")}>
          {(control) => <Input {...control} {...form.register("name")} maxLength={NAME_MAX_LENGTH} autoComplete="off" placeholder={namePlaceholder} />}
        </Field>
        <Field id={url.id} label={url.label} hint={url.hint} error={errorAt(form, url.name)}>
          {(control) => <Input {...control} {...form.register(url.name)} maxLength={2048} type="url" autoComplete="off" className="font-mono" placeholder={url.placeholder} />}
        </Field>
        {children}
        {auth}
        <SecretHeadersEditor idPrefix="connector" />
        <MarkdownField form={form} name="instructions" id="connector-instructions" label="Instructions (markdown)" hint={instructionsHint} />
      </CardContent>
    </Card>
  );
}
