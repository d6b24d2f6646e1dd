"use client";

import { json } from "@codemirror/lang-json";
import { CodeEditor, type CodeEditorProps } from "@/components/editors/code-editor";

const JSON_LANGUAGE = json();

/** JSON text in CodeMirror (validation is the form's business: it knows what shape it wants). */
export function JsonEditor(props: Omit<CodeEditorProps, "language">) {
  return <CodeEditor {...props} language={JSON_LANGUAGE} />;
}

/** The JSON.parse error of `text` in words, or null when it parses. */
export function jsonSyntaxError(text: string): string | null {
  try {
    JSON.parse(text);
    return null;
  } catch (e) {
    return `Not valid JSON: ${(e as Error).message}`;
  }
}
