"use client";

import { useMemo, useState } from "react";
import { search, type JSONValue } from "@jmespath-community/jmespath";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";

/**
 * Try a tool's preview of an http tool's `response.select` (issue 26 point 4): a JMESPath
 * expression applied, in the browser, to the JSON answer just received — the same library
 * the runtime shapes answers with — so an admin sees what the model would get before saving
 * the expression on the tool. Nothing is called or stored.
 */
export function SelectionPreview({ answer }: { answer: unknown }) {
  const [expression, setExpression] = useState("");
  const outcome = useMemo(() => {
    const trimmed = expression.trim();
    if (!trimmed) return null;
    try {
      return { ok: true as const, text: JSON.stringify(search(answer as JSONValue, trimmed) ?? null, null, 2) };
    } catch (e) {
      return { ok: false as const, text: e instanceof Error ? e.message : String(e) };
    }
  }, [answer, expression]);
  return (
    <div className="grid gap-2">
      <Field id="try-select" label="Preview a selection (JMESPath)" hint="For example items[].{id: id, name: name}. Save it as the tool's response.select on its connector." error={outcome && !outcome.ok ? `Not a valid selection: ${outcome.text}` : undefined}>
        {(control) => <Input {...control} value={expression} onChange={(e) => setExpression(e.target.value)} spellCheck={false} autoComplete="off" className="font-mono" />}
      </Field>
      {outcome?.ok && (
        <pre aria-label="Selected answer" tabIndex={0} className="max-h-96 overflow-auto rounded bg-zinc-50 p-3 font-mono text-xs whitespace-pre-wrap dark:bg-zinc-950">
          {outcome.text}
        </pre>
      )}
    </div>
  );
}

/** The JSON answer of a result's first text content, or undefined when it is not JSON. */
export function jsonAnswerOf(content: Array<{ type: string; text?: string }>): unknown {
  const first = content.find((c) => c.type === "text");
  if (!first?.text) return undefined;
  try {
    return JSON.parse(first.text) as unknown;
  } catch {
    return undefined;
  }
}
