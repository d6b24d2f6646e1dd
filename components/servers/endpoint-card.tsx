"use client";

import { CopyButton } from "@/components/ui/copy-button";
import { CodeBlock } from "@/components/ui/code-block";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { claudeDesktopConfig, curlInitialize, cursorConfig, KEY_PLACEHOLDER } from "@/components/servers/client-config";

/** The server's endpoint URL and ready-to-paste configuration for common MCP clients. */
export function EndpointDetails({ url, serverName, id = "endpoint-url" }: { url: string; serverName: string; id?: string }) {
  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center gap-2">
        <code id={id} className="rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 font-mono text-sm break-all dark:border-zinc-800 dark:bg-zinc-950">
          {url}
        </code>
        <CopyButton value={url} label="Copy URL" aria-describedby={id} />
      </div>
      <Tabs defaultValue="claude">
        <TabsList aria-label="Client configuration">
          <TabsTrigger value="claude">Claude Desktop</TabsTrigger>
          <TabsTrigger value="cursor">Cursor</TabsTrigger>
          <TabsTrigger value="curl">curl</TabsTrigger>
        </TabsList>
        <TabsContent value="claude">
          <CodeBlock label="claude_desktop_config.json" code={claudeDesktopConfig(url, serverName)} />
        </TabsContent>
        <TabsContent value="cursor">
          <CodeBlock label=".cursor/mcp.json" code={cursorConfig(url, serverName)} />
        </TabsContent>
        <TabsContent value="curl">
          <CodeBlock label="initialize with curl" code={curlInitialize(url)} />
        </TabsContent>
      </Tabs>
      <p className="text-xs text-zinc-500 dark:text-zinc-400">
        Replace <code className="font-mono">{KEY_PLACEHOLDER}</code> with an API key of this workspace (API keys page).
      </p>
    </div>
  );
}
