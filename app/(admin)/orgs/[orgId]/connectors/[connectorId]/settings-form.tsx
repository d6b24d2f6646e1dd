"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { FormAlert, errorAt } from "@/components/forms/form-alert";
import { applyResult } from "@/components/forms/apply-result";
import { useObjectVersion } from "@/components/forms/use-object-version";
import { DeleteButton } from "@/components/forms/delete-button";
import { SaveButton } from "@/components/forms/save-button";
import { formPathOf, UpstreamProtocolForm } from "@/components/connectors/connector-form-model";
import { UpstreamProtocolFields } from "@/components/connectors/upstream-protocol-fields";
import { HttpUrl } from "@/lib/connectors/schemas";
import { Name } from "@/lib/schemas/common";
import type { ProtocolEra, UpstreamTransportKind } from "@/lib/connectors/upstream-protocol";
import { deleteConnectorAction, updateConnectorAction } from "@/app/(admin)/orgs/[orgId]/connectors/actions";
import { NAME_MAX_LENGTH } from "@/lib/schemas/common";

/** An http connector keeps the era and transport defaults, which are never sent for it. */
const SettingsForm = z.intersection(z.object({ name: Name, url: HttpUrl }), UpstreamProtocolForm);

interface Props {
  connector: { id: string; type: "http" | "mcp"; name: string; url: string; protocolEra?: ProtocolEra; transport?: UpstreamTransportKind };
  /** The connector's ETag as the page loaded it (shared by the page's connector forms). */
  version: string;
}

export function ConnectorSettingsForm({ connector, version: loaded }: Props) {
  const version = useObjectVersion(`connector:${connector.id}`, loaded);
  const mcp = connector.type === "mcp";
  const form = useForm({
    resolver: zodResolver(SettingsForm),
    defaultValues: { name: connector.name, url: connector.url, protocolEra: connector.protocolEra ?? "auto", transport: connector.transport ?? "streamable-http" },
  });
  const urlKey = mcp ? "url" : "baseUrl";
  const onSubmit = form.handleSubmit(async (values) => {
    const protocol = mcp ? { protocolEra: values.protocolEra, transport: values.transport } : {};
    const result = await updateConnectorAction(connector.id, { name: values.name, config: { [urlKey]: values.url, ...protocol } }, version.current());
    version.track(result);
    const ok = applyResult(result, { form, success: "Connector saved", mapPath: (p) => (formPathOf(p) === urlKey ? "url" : formPathOf(p)) });
    if (ok) {
      const { config } = result.data;
      form.reset({ name: result.data.name, url: config[urlKey] ?? "", protocolEra: config.protocolEra ?? "auto", transport: config.transport ?? "streamable-http" });
    }
  });
  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      <FormAlert form={form} />
      <Field id="connector-name" label="Name" error={errorAt(form, "name")}>
        {(control) => <Input {...control} {...form.register("name")} maxLength={NAME_MAX_LENGTH} autoComplete="off" />}
      </Field>
      <Field
        id="connector-url"
        label={connector.type === "http" ? "Base URL" : "MCP server URL"}
        hint={connector.type === "mcp" ? "After changing it, reload the tools on the Tools page." : undefined}
        error={errorAt(form, "url")}
      >
        {(control) => <Input {...control} {...form.register("url")} maxLength={2048} type="url" className="font-mono" autoComplete="off" />}
      </Field>
      {mcp && <UpstreamProtocolFields form={form} />}
      <SaveButton form={form} />
    </form>
  );
}

export function DeleteConnectorButton({ connector, version: loaded }: { connector: { id: string; name: string; orgId: string }; version: string }) {
  const version = useObjectVersion(`connector:${connector.id}`, loaded);
  return (
    <DeleteButton
      label="Delete connector"
      name={connector.name}
      description="MCP clients lose its tools on their next request. Roles keep its tool names, but they match nothing. This cannot be undone."
      success={`Connector "${connector.name}" deleted`}
      action={() => deleteConnectorAction(connector.id, version.current())}
      redirectTo={`/orgs/${connector.orgId}/connectors`}
    />
  );
}
