"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter } from "next/navigation";
import { FormProvider, useForm, useWatch } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/forms/form-alert";
import { applyResult } from "@/components/forms/apply-result";
import { NewConnectorCard } from "@/components/connectors/new-connector-card";
import { UpstreamProtocolFields } from "@/components/connectors/upstream-protocol-fields";
import { AuthFields } from "@/components/connectors/auth-fields";
import { authFieldsOf } from "@/components/connectors/auth-form-model";
import { McpConnectorForm, type McpConnectorFormInput, formPathOf, headersObject } from "@/components/connectors/connector-form-model";
import { createConnectorAction } from "@/app/(admin)/orgs/[orgId]/connectors/actions";
import { plural } from "@/components/ui/plural";

/** A new mcp connector: saving connects to the upstream and discovers its tools (or says why not). */
export function McpConnectorCreateForm({ orgId }: { orgId: string }) {
  const router = useRouter();
  const form = useForm<McpConnectorFormInput, unknown, ReturnType<typeof McpConnectorForm.parse>>({
    resolver: zodResolver(McpConnectorForm),
    defaultValues: { name: "", url: "", headers: [], auth: authFieldsOf(undefined), instructions: "", protocolEra: "auto", transport: "streamable-http" },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    const result = await createConnectorAction(orgId, {
      type: "mcp",
      name: values.name,
      instructions: values.instructions.trim() ? values.instructions : null,
      config: { url: values.url, headers: headersObject(values.headers), protocolEra: values.protocolEra, transport: values.transport },
      auth: values.auth,
    });
    // An OAuth connector is made without reaching the upstream: its page says to connect to discover tools.
    const oauth = values.auth.type === "oauth";
    const success = oauth ? `Connector "${values.name}" created; connect to discover its tools` : `Connected; ${plural(result.ok ? result.data.tools.length : 0, "tool")} discovered`;
    if (applyResult(result, { form, success, mapPath: formPathOf })) {
      router.push(`/orgs/${orgId}/connectors/${result.data.id}${oauth ? "" : "/tools"}`);
    }
  });
  const submitting = form.formState.isSubmitting;
  const oauthChosen = useWatch({ control: form.control, name: "auth.type" }) === "oauth";
  return (
    <FormProvider {...form}>
      <form onSubmit={onSubmit} className="grid gap-6" noValidate>
        <FormAlert form={form} />
        <NewConnectorCard
          namePlaceholder="Docs"
          url={{ id: "connector-url", name: "url", label: "MCP server URL", hint: "Its Streamable HTTP endpoint (e.g. https://mcp.example.com/mcp), or its SSE endpoint for HTTP+SSE", placeholder: "https://mcp.example.com/mcp" }}
          instructionsHint="Part of the MCP servers' instructions for callers who can use this connector."
          auth={<AuthFields connectorType="mcp" />}
        >
          <UpstreamProtocolFields form={form} />
        </NewConnectorCard>
        <div className="flex items-center gap-3">
          <Button type="submit" disabled={submitting}>
            {oauthChosen ? (submitting ? "Creating…" : "Create connector") : submitting ? "Connecting and discovering tools…" : "Connect and discover tools"}
          </Button>
          <span role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
            {submitting && !oauthChosen ? "Talking to the upstream MCP server; this can take a few seconds." : ""}
          </span>
        </div>
      </form>
    </FormProvider>
  );
}
