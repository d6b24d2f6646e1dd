"use client";

import type { FieldValues, UseFormReturn } from "react-hook-form";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import { errorAt } from "@/components/forms/form-alert";

/** An mcp connector's protocol era and transport, as the form fields `protocolEra` and `transport`. */
export function UpstreamProtocolFields<F extends FieldValues, C, T>({ form }: { form: UseFormReturn<F, C, T> }) {
  // The fields are declared by every form that renders this component.
  const f = form as unknown as UseFormReturn<{ protocolEra: string; transport: string }>;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field
        id="connector-protocol-era"
        label="Protocol era"
        hint="Auto asks the server first (server/discover) and falls back to initialize; pin an era when an upstream answers the probe wrongly."
        error={errorAt(form, "protocolEra")}
      >
        {(control) => (
          <Select {...control} {...f.register("protocolEra")}>
            <option value="auto">Auto (probe, then fall back)</option>
            <option value="2025-11-25">2025-11-25 (initialize)</option>
            <option value="2026-07-28">2026-07-28 (server/discover)</option>
          </Select>
        )}
      </Field>
      <Field id="connector-transport" label="Transport" hint="HTTP+SSE is the legacy transport of older servers (2024-11-05), 2025-era only." error={errorAt(form, "transport")}>
        {(control) => (
          <Select {...control} {...f.register("transport")}>
            <option value="streamable-http">Streamable HTTP</option>
            <option value="sse">HTTP+SSE (legacy)</option>
          </Select>
        )}
      </Field>
    </div>
  );
}
