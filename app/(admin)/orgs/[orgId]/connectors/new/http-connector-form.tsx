"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter } from "next/navigation";
import { FormProvider, useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/forms/form-alert";
import { applyResult } from "@/components/forms/apply-result";
import { NewConnectorCard } from "@/components/connectors/new-connector-card";
import { ToolListEditor } from "@/components/connectors/tool-list-editor";
import { AuthFields } from "@/components/connectors/auth-fields";
import { authFieldsOf } from "@/components/connectors/auth-form-model";
import { HttpConnectorForm, type HttpConnectorFormInput, draftToTool, formPathOf, headersObject } from "@/components/connectors/connector-form-model";
import type { ImportedDocument } from "@/components/connectors/openapi-import-dialog";
import { NAME_MAX_LENGTH } from "@/lib/schemas/common";
import { createConnectorAction, importOpenApiAction } from "@/app/(admin)/orgs/[orgId]/connectors/actions";

/** A new http connector: base URL, authentication, secret headers, instructions and tools, saved in one request. */
export function HttpConnectorCreateForm({ orgId }: { orgId: string }) {
  const router = useRouter();
  const form = useForm<HttpConnectorFormInput, unknown, ReturnType<typeof HttpConnectorForm.parse>>({
    resolver: zodResolver(HttpConnectorForm),
    defaultValues: { name: "", baseUrl: "", headers: [], auth: authFieldsOf(undefined), instructions: "", tools: [] },
  });
  // An imported document names the connector, its base URL and the secret headers it needs;
  // what the admin already typed stays.
  const fillFromDocument = ({ title, baseUrl, secretHeaders }: ImportedDocument) => {
    if (title && !form.getValues("name").trim()) form.setValue("name", title.slice(0, NAME_MAX_LENGTH), { shouldDirty: true });
    if (baseUrl && !form.getValues("baseUrl")) form.setValue("baseUrl", baseUrl, { shouldDirty: true });
    const have = new Set(form.getValues("headers").map((h) => h.name.trim().toLowerCase()));
    const missing = secretHeaders.filter((h) => !have.has(h.name.toLowerCase())).map((h) => ({ name: h.name, value: "" }));
    if (missing.length > 0) form.setValue("headers", [...form.getValues("headers"), ...missing], { shouldDirty: true });
  };
  const onSubmit = form.handleSubmit(async (values) => {
    const result = await createConnectorAction(orgId, {
      type: "http",
      name: values.name,
      instructions: values.instructions.trim() ? values.instructions : null,
      config: { baseUrl: values.baseUrl, headers: headersObject(values.headers) },
      auth: values.auth,
      tools: values.tools.map(draftToTool),
    });
    if (applyResult(result, { form, success: `Connector "${values.name}" created`, mapPath: formPathOf })) {
      router.push(`/orgs/${orgId}/connectors/${result.data.id}`);
    }
  });
  return (
    <FormProvider {...form}>
      <form onSubmit={onSubmit} className="grid gap-6" noValidate>
        <FormAlert form={form} />
        <NewConnectorCard
          namePlaceholder="CRM"
          url={{ id: "connector-base-url", name: "baseUrl", label: "Base URL", hint: "Tool paths are appended to it, e.g. https://api.example.com/v1", placeholder: "https://api.example.com" }}
          instructionsHint="How to use this API well; part of the MCP servers' instructions for callers who can use it."
          auth={<AuthFields connectorType="http" />}
        />
        <ToolListEditor onDocument={fillFromDocument} readDocument={(text) => importOpenApiAction(orgId, text)} />
        <div className="flex gap-2">
          <Button type="submit" disabled={form.formState.isSubmitting}>
            {form.formState.isSubmitting ? "Creating…" : "Create connector"}
          </Button>
        </div>
      </form>
    </FormProvider>
  );
}
