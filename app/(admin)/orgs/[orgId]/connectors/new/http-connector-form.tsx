"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter } from "next/navigation";
import { FormProvider, useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/forms/form-alert";
import { applyResult } from "@/components/forms/apply-result";
import { NewConnectorCard } from "@/components/connectors/new-connector-card";
import { ToolListEditor } from "@/components/connectors/tool-list-editor";
import { HttpConnectorForm, type HttpConnectorFormInput, draftToTool, formPathOf, headersObject } from "@/components/connectors/connector-form-model";
import { createConnectorAction } from "@/app/(admin)/orgs/[orgId]/connectors/actions";

/** A new http connector: base URL, secret headers, instructions and tools, saved in one request. */
export function HttpConnectorCreateForm({ orgId }: { orgId: string }) {
  const router = useRouter();
  const form = useForm<HttpConnectorFormInput, unknown, ReturnType<typeof HttpConnectorForm.parse>>({
    resolver: zodResolver(HttpConnectorForm),
    defaultValues: { name: "", baseUrl: "", headers: [], instructions: "", tools: [] },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    const result = await createConnectorAction(orgId, {
      type: "http",
      name: values.name,
      instructions: values.instructions.trim() ? values.instructions : null,
      config: { baseUrl: values.baseUrl, headers: headersObject(values.headers) },
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
        />
        <ToolListEditor onBaseUrl={(url) => !form.getValues("baseUrl") && form.setValue("baseUrl", url, { shouldDirty: true })} />
        <div className="flex gap-2">
          <Button type="submit" disabled={form.formState.isSubmitting}>
            {form.formState.isSubmitting ? "Creating…" : "Create connector"}
          </Button>
        </div>
      </form>
    </FormProvider>
  );
}
