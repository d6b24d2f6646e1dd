"use client";

import dynamic from "next/dynamic";
import { useTheme } from "next-themes";
import { useMemo } from "react";
import { EditorView } from "@codemirror/view";
import type { Extension } from "@codemirror/state";
import { cn } from "@/components/ui/cn";

// CodeMirror measures the DOM: render it in the browser only, with a same-sized placeholder.
const CodeMirror = dynamic(() => import("@uiw/react-codemirror"), {
  ssr: false,
  loading: () => <div className="h-full min-h-24 animate-pulse rounded-md bg-zinc-100 dark:bg-zinc-800" />,
});

export interface CodeEditorProps {
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  /** The id of the visible label of this editor. */
  labelledBy: string;
  describedBy?: string;
  invalid?: boolean;
  language: Extension;
  minHeight?: string;
  maxHeight?: string;
  className?: string;
}

/**
 * A CodeMirror editor labelled like a form control. Tab moves focus on (it does not indent),
 * so keyboard users are never trapped in the editor.
 */
export function CodeEditor({ value, onChange, onBlur, labelledBy, describedBy, invalid, language, minHeight = "8rem", maxHeight = "28rem", className }: CodeEditorProps) {
  const { resolvedTheme } = useTheme();
  const extensions = useMemo(
    () => [
      language,
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({
        "aria-labelledby": labelledBy,
        ...(describedBy ? { "aria-describedby": describedBy } : {}),
        ...(invalid ? { "aria-invalid": "true" } : {}),
        "aria-multiline": "true",
      }),
    ],
    [language, labelledBy, describedBy, invalid],
  );
  return (
    <div
      className={cn(
        "overflow-hidden rounded-md border border-zinc-300 text-sm focus-within:ring-2 focus-within:ring-sky-500 dark:border-zinc-700",
        invalid && "border-red-500 dark:border-red-400",
        className,
      )}
    >
      <CodeMirror
        value={value}
        onChange={onChange}
        onBlur={onBlur}
        extensions={extensions}
        theme={resolvedTheme === "dark" ? "dark" : "light"}
        indentWithTab={false}
        minHeight={minHeight}
        maxHeight={maxHeight}
        basicSetup={{ foldGutter: false, highlightActiveLine: false, autocompletion: false }}
      />
    </div>
  );
}
