"use client";

import { markdown } from "@codemirror/lang-markdown";
import { CodeEditor } from "@/components/editors/code-editor";
import { MarkdownPreview } from "@/components/editors/markdown-preview";
import { FieldNotes, fieldDescription } from "@/components/ui/field";
import { Label } from "@/components/ui/label";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";

const MARKDOWN_LANGUAGE = markdown();

interface MarkdownEditorProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  hint?: string;
  error?: string;
  minHeight?: string;
}

/** Markdown source in CodeMirror, with a Preview tab showing what MCP clients will read. */
export function MarkdownEditor({ id, label, value, onChange, onBlur, hint, error, minHeight = "12rem" }: MarkdownEditorProps) {
  const labelId = `${id}-label`;
  const { describedBy } = fieldDescription(id, hint, error);
  return (
    <div className="grid gap-1.5">
      <Tabs defaultValue="write">
        <div className="flex flex-wrap items-end justify-between gap-2">
          <Label id={labelId} asChild>
            <span>{label}</span>
          </Label>
          <TabsList aria-label={`${label}: write or preview`}>
            <TabsTrigger value="write">Write</TabsTrigger>
            <TabsTrigger value="preview">Preview</TabsTrigger>
          </TabsList>
        </div>
        <TabsContent value="write" className="mt-2">
          <CodeEditor
            value={value}
            onChange={onChange}
            onBlur={onBlur}
            labelledBy={labelId}
            describedBy={describedBy}
            invalid={Boolean(error)}
            language={MARKDOWN_LANGUAGE}
            minHeight={minHeight}
          />
        </TabsContent>
        <TabsContent value="preview" className="mt-2 min-h-24 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
          <MarkdownPreview source={value} />
        </TabsContent>
      </Tabs>
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}
