"use client";

import dynamic from "next/dynamic";
import { useTheme } from "next-themes";
import { useMemo } from "react";
import { EditorView } from "@codemirror/view";
import { type Extension, Prec } from "@codemirror/state";
import { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { tags } from "@lezer/highlight";
import { cn } from "@/components/ui/cn";

// CodeMirror measures the DOM: render it in the browser only, with a same-sized placeholder.
const CodeMirror = dynamic(() => import("@uiw/react-codemirror"), {
  ssr: false,
  loading: () => <div className="h-full min-h-24 animate-pulse rounded-md bg-zinc-100 dark:bg-zinc-800" />,
});

/**
 * One Dark's coral, violet and grey read at about 4:1 on its background, under WCAG AA's 4.5:1
 * for text this size (axe flagged a skill's markdown heading): the same hues, lightened.
 */
const READABLE_DARK = Prec.highest(
  syntaxHighlighting(
    HighlightStyle.define([
      { tag: [tags.name, tags.deleted, tags.character, tags.propertyName, tags.macroName, tags.heading], color: "#f0a3aa" },
      { tag: tags.keyword, color: "#d9a6ea" },
      { tag: [tags.meta, tags.comment, tags.link], color: "#a7afbd" },
    ]),
  ),
);
const READABLE_DARK_GUTTER = EditorView.theme({ ".cm-gutters": { color: "#a7afbd" } }, { dark: true });

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
  const themed = useMemo(
    () => (resolvedTheme === "dark" ? [...extensions, READABLE_DARK, READABLE_DARK_GUTTER] : extensions),
    [extensions, resolvedTheme],
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
        extensions={themed}
        theme={resolvedTheme === "dark" ? "dark" : "light"}
        indentWithTab={false}
        minHeight={minHeight}
        maxHeight={maxHeight}
        basicSetup={{ foldGutter: false, highlightActiveLine: false, autocompletion: false }}
      />
    </div>
  );
}
