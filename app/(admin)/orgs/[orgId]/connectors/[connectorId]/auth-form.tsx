"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { FormProvider, useForm } from "react-hook-form";
import { z } from "zod";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { FormAlert } from "@/components/forms/form-alert";
import { applyResult } from "@/components/forms/apply-result";
import { useObjectVersion } from "@/components/forms/use-object-version";
import { SaveButton } from "@/components/forms/save-button";
import { AuthFields } from "@/components/connectors/auth-fields";
import { asksToReconnect, authFieldsOf, authForm, type AuthFieldsInput } from "@/components/connectors/auth-form-model";
import { formPathOf } from "@/components/connectors/connector-form-model";
import type { ConnectorAuth, ConnectorAuthInput } from "@/lib/connectors/upstream-auth/auth-schemas";
import { updateConnectorAction } from "@/app/(admin)/orgs/[orgId]/connectors/actions";

interface Props {
  connector: { id: string; type: "http" | "mcp"; auth: ConnectorAuth };
  /** The connector's ETag as the page loaded it (shared by the page's connector forms). */
  version: string;
}

/**
 * Changes how a connector authenticates (PATCH `auth`). The client secret is never sent to the
 * browser: left empty it is kept. A change that makes connected people connect again (another
 * client, other scopes, a new secret) is confirmed first.
 */
export function ConnectorAuthForm({ connector, version: loaded }: Props) {
  const version = useObjectVersion(`connector:${connector.id}`, loaded);
  // What is stored now (after a save, the answer's): whether a secret is kept, what asks to reconnect.
  const [stored, setStored] = useState(connector.auth);
  const form = useForm<{ auth: AuthFieldsInput }, unknown, { auth: ConnectorAuthInput }>({
    // Built each render: the form library reads its latest options, so the check follows `stored`.
    resolver: zodResolver(z.object({ auth: authForm(connector.type, stored) })),
    defaultValues: { auth: authFieldsOf(connector.auth) },
  });
  const [confirming, setConfirming] = useState<ConnectorAuthInput | null>(null);
  const save = async (auth: ConnectorAuthInput): Promise<boolean> => {
    const result = await updateConnectorAction(connector.id, { auth }, version.current());
    version.track(result);
    if (!applyResult(result, { form, success: "Authentication saved", mapPath: formPathOf })) return false;
    setStored(result.data.auth);
    form.reset({ auth: authFieldsOf(result.data.auth) });
    return true;
  };
  const onSubmit = form.handleSubmit(async ({ auth }) => {
    if (asksToReconnect(stored, auth)) setConfirming(auth);
    else await save(auth);
  });
  return (
    <FormProvider {...form}>
      <form onSubmit={onSubmit} className="grid gap-4" noValidate>
        <FormAlert form={form} />
        <AuthFields connectorType={connector.type} stored={stored} />
        <SaveButton form={form}>Save authentication</SaveButton>
      </form>
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title="Ask everyone to connect again?"
        description="Changing the client, the scopes or the authorization server marks every connection of this connector as needing to reconnect: each person (or the shared account's admin) connects again before their calls work."
        confirmLabel="Save and ask to reconnect"
        pendingLabel="Saving…"
        // A refused save closes the dialog too, so the errors at the fields are seen.
        onConfirm={async () => void (confirming && (await save(confirming)))}
      />
    </FormProvider>
  );
}
