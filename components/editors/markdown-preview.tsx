"use client";

import ReactMarkdown from "react-markdown";
import remarkGfm from "remark-gfm";

/**
 * Markdown as MCP clients will read it, rendered safely: raw HTML in the source is shown as
 * text (no rehype-raw), and react-markdown drops javascript: and other unsafe link targets.
 */
export function MarkdownPreview({ source, emptyText = "Nothing to preview yet." }: { source: string; emptyText?: string }) {
  if (!source.trim()) return <p className="text-sm text-zinc-500 dark:text-zinc-400">{emptyText}</p>;
  return (
    <div className="markdown-body text-sm leading-relaxed">
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        skipHtml
        components={{
          a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer nofollow" className="text-sky-700 underline dark:text-sky-300" />,
          h1: ({ node: _node, ...props }) => <h3 {...props} className="mt-4 mb-2 text-lg font-semibold" />,
          h2: ({ node: _node, ...props }) => <h4 {...props} className="mt-4 mb-2 text-base font-semibold" />,
          h3: ({ node: _node, ...props }) => <h5 {...props} className="mt-3 mb-1 font-semibold" />,
          p: ({ node: _node, ...props }) => <p {...props} className="my-2" />,
          ul: ({ node: _node, ...props }) => <ul {...props} className="my-2 list-disc pl-6" />,
          ol: ({ node: _node, ...props }) => <ol {...props} className="my-2 list-decimal pl-6" />,
          code: ({ node: _node, ...props }) => <code {...props} className="rounded bg-zinc-100 px-1 font-mono text-xs dark:bg-zinc-800" />,
          pre: ({ node: _node, ...props }) => <pre {...props} className="my-2 overflow-x-auto rounded-md bg-zinc-100 [contain:inline-size] p-3 dark:bg-zinc-800" />,
          table: ({ node: _node, ...props }) => <table {...props} className="my-2 border-collapse text-left [&_td]:border [&_td]:px-2 [&_th]:border [&_th]:px-2" />,
          blockquote: ({ node: _node, ...props }) => <blockquote {...props} className="my-2 border-l-4 border-zinc-300 pl-3 text-zinc-600 dark:border-zinc-700 dark:text-zinc-400" />,
        }}
      >
        {source}
      </ReactMarkdown>
    </div>
  );
}
