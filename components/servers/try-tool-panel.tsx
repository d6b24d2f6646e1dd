"use client";

import { type FormEvent, type KeyboardEvent, useState, useTransition } from "react";
import { Play } from "lucide-react";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import { SchemaFields, argumentsOf, propertySpecs, useSchemaValues } from "@/components/servers/schema-form";
import type { ToolCallResult } from "@/lib/connectors/runtime/types";
import type { ActionResult } from "@/components/forms/action-result";
import { ToolAppFrame, type RunTool, type ToolAppView } from "@/components/servers/tool-app-frame";
import { jsonAnswerOf, SelectionPreview } from "@/components/servers/selection-preview";

export interface TryableTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  connectorName: string;
  /** The `ui://` view the tool names (`_meta.ui.resourceUri`), rendered with its result. */
  appUri?: string | null;
}

type Outcome = { tool: string; args: Record<string, unknown>; result: ToolCallResult; durationMs: number; app: ToolAppView | null; call: number };
type ReadApp = (uri: string) => Promise<ActionResult<ToolAppView>>;

/** Text content pretty-printed when it is JSON. */
function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/**
 * Try a tool: pick one, fill the form generated from its input schema, call it as an MCP
 * client would (tools/call through the endpoint's own path), see the result and the duration.
 */
export function TryToolPanel({ tools, run, readApp, nonce = "" }: { tools: TryableTool[]; run: RunTool; readApp?: ReadApp; nonce?: string }) {
  const [selected, setSelected] = useState(tools[0]?.name ?? "");
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [pending, startTransition] = useTransition();
  const fields = useSchemaValues();
  const tool = tools.find((t) => t.name === selected);
  const specs = tool ? propertySpecs(tool.inputSchema) : [];
  if (tools.length === 0) return <p className="text-sm text-zinc-600 dark:text-zinc-400">Assign a connector with tools to try them here.</p>;
  const call = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!tool || pending) return;
    const { args, errors } = argumentsOf(specs, fields.values);
    fields.setErrors(errors);
    if (Object.keys(errors).length > 0) return;
    startTransition(async () => {
      const answer = await run({ tool: tool.name, args });
      if (!answer.ok) {
        toast.error(answer.error);
        return;
      }
      // A tool with an app shows its view too, as a host would; the result stays shown when the view cannot be read.
      const app = tool.appUri && readApp ? await readApp(tool.appUri) : null;
      if (app && !app.ok) toast.error(`The tool's app could not be shown: ${app.error}`);
      setOutcome({ tool: tool.name, args, ...answer.data, app: app?.ok ? app.data : null, call: Date.now() });
    });
  };
  // Enter in a one-line field submits the form by itself; in a JSON text area it is a newline,
  // so there Ctrl+Enter (Cmd+Enter on a Mac) calls the tool, as in most editors.
  const submitFromTextArea = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && event.target instanceof HTMLTextAreaElement) {
      event.preventDefault();
      event.currentTarget.requestSubmit();
    }
  };
  return (
    <div className="grid gap-4">
      {/* A real form: Enter in an argument calls the tool, as in any form. */}
      <form onSubmit={call} onKeyDown={submitFromTextArea} className="grid gap-4" aria-label="Tool arguments" noValidate>
        <Field id="try-tool" label="Tool">
          {(control) => (
            <Select
              {...control}
              value={selected}
              onChange={(e) => {
                setSelected(e.target.value);
                fields.reset();
                setOutcome(null);
              }}
            >
              {tools.map((t) => (
                <option key={t.name} value={t.name}>
                  {t.name} ({t.connectorName})
                </option>
              ))}
            </Select>
          )}
        </Field>
        {tool?.description && <p className="text-sm text-zinc-600 dark:text-zinc-400">{tool.description}</p>}
        <SchemaFields idPrefix="try-arg" specs={specs} values={fields.values} errors={fields.errors} onChange={fields.onChange} />
        <div>
          <Button type="submit" disabled={pending} aria-busy={pending} aria-keyshortcuts={specs.some((s) => s.kind === "json") ? "Control+Enter Meta+Enter" : undefined}>
            <Play aria-hidden />
            {pending ? "Calling…" : "Call tool"}
          </Button>
        </div>
      </form>
      <div aria-live="polite">
        {outcome && (
          <section aria-label="Tool result" className="grid gap-2 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
            <div className="flex flex-wrap items-center gap-2 text-sm">
              <span className="font-medium">{outcome.tool}</span>
              {outcome.result.isError ? <Badge tone="danger">Error result</Badge> : <Badge tone="success">OK</Badge>}
              <span className="text-zinc-600 dark:text-zinc-400">in {outcome.durationMs} ms</span>
            </div>
            {outcome.app && <ToolAppFrame key={outcome.call} tool={outcome.tool} view={outcome.app} args={outcome.args} result={outcome.result} run={run} nonce={nonce} />}
            {outcome.result.content.map((item, i) => (
              <pre key={i} tabIndex={0} className="max-h-96 overflow-auto rounded bg-zinc-50 p-3 font-mono text-xs whitespace-pre-wrap dark:bg-zinc-950">
                {item.type === "text" ? pretty(item.text) : JSON.stringify(item, null, 2)}
              </pre>
            ))}
            {!outcome.result.isError && jsonAnswerOf(outcome.result.content) !== undefined && <SelectionPreview answer={jsonAnswerOf(outcome.result.content)} />}
          </section>
        )}
      </div>
    </div>
  );
}
