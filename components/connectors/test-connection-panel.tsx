"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState, useTransition } from "react";
import { PlugZap } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { saveProbe, testConnector } from "@/components/connectors/health-api";
import { ApiError } from "@/components/files/files-api";
import { PROBE_METHODS, type ConnectorProbe } from "@/lib/connector-health/schemas";

/**
 * "Test connection" and, for an http connector, the probe request it sends. Both go through
 * the JSON API; the page is refreshed afterwards so the health shown is the stored one.
 */
export function TestConnectionPanel({ connectorId, type, probe }: { connectorId: string; type: "http" | "mcp"; probe: ConnectorProbe | null }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  /** The API's field errors of the probe (422 `errors[].path`: `method`, `path`), shown at their fields. */
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const [saved, setSaved] = useState(false);

  const run = (work: () => Promise<void>) => {
    // Cleared at once, not with the transition (which ends only after the refresh): an old
    // error must not stay shown next to "Probe saved.".
    setError(null);
    setFieldErrors({});
    setSaved(false);
    startTransition(async () => {
      try {
        await work();
        router.refresh();
      } catch (e) {
        const atFields = e instanceof ApiError ? pick(e.fieldErrors, PROBE_FIELDS) : {};
        setFieldErrors(atFields);
        // The banner only when something is not said at a field (any other failure).
        if (Object.keys(atFields).length === 0) setError(e instanceof Error ? e.message : String(e));
      }
    });
  };
  const test = () => run(async () => setResult((await testConnector(connectorId)).lastTest));
  const save = (next: ConnectorProbe) =>
    run(async () => {
      await saveProbe(connectorId, next);
      setSaved(true);
    });

  return (
    <div className="grid gap-4">
      {type === "http" && <ProbeForm probe={probe} pending={pending} onSave={save} errors={fieldErrors} />}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="button" onClick={test} disabled={pending}>
          <PlugZap aria-hidden />
          {pending ? "Testing…" : "Test connection"}
        </Button>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {type === "http" ? "Sends the probe request with the connector's secret headers; any answer below 400 passes." : "Connects to the upstream MCP server and lists its tools."}
        </p>
      </div>
      <div aria-live="polite" className="grid gap-2">
        {saved && <p className="text-sm text-emerald-800 dark:text-emerald-300">Probe saved.</p>}
        {result && (
          <Alert tone={result.ok ? "info" : "error"}>
            <span className="font-medium">{result.ok ? "Connection works. " : "Connection failed. "}</span>
            <span className="break-words">{result.message}</span>
          </Alert>
        )}
        {error && <Alert>{error}</Alert>}
      </div>
    </div>
  );
}

const PROBE_FIELDS = ["method", "path"];

/** The entries of `errors` at the given fields. */
function pick(errors: Record<string, string>, fields: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(errors).filter(([path]) => fields.includes(path)));
}

/** The method and path below the base URL that an http connector's test sends. */
function ProbeForm({ probe, pending, onSave, errors }: { probe: ConnectorProbe | null; pending: boolean; onSave: (probe: ConnectorProbe) => void; errors: Record<string, string> }) {
  const [method, setMethod] = useState<ConnectorProbe["method"]>(probe?.method ?? "GET");
  const [path, setPath] = useState(probe?.path ?? "/");
  // The field the API refused gets the focus, so its error (read with it: aria-describedby) is heard and fixed there.
  useEffect(() => {
    const refused = ["method", "path"].find((field) => errors[field]);
    if (refused) document.getElementById(`probe-${refused}`)?.focus();
  }, [errors]);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSave({ method, path });
      }}
      // Tops aligned (an error line may grow a field); the button drops by a label's height to sit level with the inputs.
      className="grid gap-3 sm:grid-cols-[8rem_1fr_auto] sm:items-start"
      aria-label="Probe request"
    >
      <Field id="probe-method" label="Method" error={errors.method}>
        {(control) => (
          <Select {...control} value={method} onChange={(e) => setMethod(e.target.value as ConnectorProbe["method"])}>
            {PROBE_METHODS.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </Select>
        )}
      </Field>
      <Field id="probe-path" label="Path below the base URL" error={errors.path}>
        {(control) => <Input {...control} value={path} onChange={(e) => setPath(e.target.value)} maxLength={2048} required className="font-mono" placeholder="/health" />}
      </Field>
      <Button type="submit" variant="outline" disabled={pending} className="sm:mt-[1.625rem]">
        Save probe
      </Button>
    </form>
  );
}
