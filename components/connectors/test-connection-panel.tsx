"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { PlugZap } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import { saveProbe, testConnector } from "@/components/connectors/health-api";
import { PROBE_METHODS, type ConnectorProbe } from "@/lib/connector-health/schemas";

/**
 * "Test connection" and, for an http connector, the probe request it sends. Both go through
 * the JSON API; the page is refreshed afterwards so the health shown is the stored one.
 */
export function TestConnectionPanel({ connectorId, type, probe }: { connectorId: string; type: "http" | "mcp"; probe: ConnectorProbe | null }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const [saved, setSaved] = useState(false);

  const run = (work: () => Promise<void>) =>
    startTransition(async () => {
      setError(null);
      setSaved(false);
      try {
        await work();
        router.refresh();
      } catch (e) {
        setError(e instanceof Error ? e.message : String(e));
      }
    });
  const test = () => run(async () => setResult((await testConnector(connectorId)).lastTest));
  const save = (next: ConnectorProbe) =>
    run(async () => {
      await saveProbe(connectorId, next);
      setSaved(true);
    });

  return (
    <div className="grid gap-4">
      {type === "http" && <ProbeForm probe={probe} pending={pending} onSave={save} />}
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

/** The method and path below the base URL that an http connector's test sends. */
function ProbeForm({ probe, pending, onSave }: { probe: ConnectorProbe | null; pending: boolean; onSave: (probe: ConnectorProbe) => void }) {
  const [method, setMethod] = useState<ConnectorProbe["method"]>(probe?.method ?? "GET");
  const [path, setPath] = useState(probe?.path ?? "/");
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSave({ method, path });
      }}
      className="grid gap-3 sm:grid-cols-[8rem_1fr_auto] sm:items-end"
      aria-label="Probe request"
    >
      <div className="grid gap-1.5">
        <Label htmlFor="probe-method">Method</Label>
        <Select id="probe-method" value={method} onChange={(e) => setMethod(e.target.value as ConnectorProbe["method"])}>
          {PROBE_METHODS.map((m) => (
            <option key={m}>{m}</option>
          ))}
        </Select>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="probe-path">Path below the base URL</Label>
        <Input id="probe-path" value={path} onChange={(e) => setPath(e.target.value)} maxLength={2048} required className="font-mono" placeholder="/health" />
      </div>
      <Button type="submit" variant="outline" disabled={pending}>
        Save probe
      </Button>
    </form>
  );
}
