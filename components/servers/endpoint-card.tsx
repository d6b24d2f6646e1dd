"use client";

import { CopyButton } from "@/components/ui/copy-button";
import { CodeBlock } from "@/components/ui/code-block";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import {
  claudeCodeOauthCommand,
  claudeDesktopConfig,
  claudeDesktopOauthConfig,
  curlInitialize,
  cursorConfig,
  cursorOauthConfig,
  KEY_PLACEHOLDER,
} from "@/components/servers/client-config";

/** Connecting by URL alone (OAuth sign-in and consent in the browser): first, when the instance offers it. */
function OauthWay({ url, serverName }: { url: string; serverName: string }) {
  return (
    <div className="grid gap-3">
      <p className="text-sm">
        Paste the URL into the client: Claude.ai and ChatGPT (add a custom connector), Claude Code, Cursor, VS Code. It signs you in here and asks which servers it may use; no key to copy. You see and revoke it under Connected apps.
      </p>
      <Tabs defaultValue="claude-code">
        <TabsList aria-label="Connect by URL">
          <TabsTrigger value="claude-code">Claude Code</TabsTrigger>
          <TabsTrigger value="cursor-url">Cursor</TabsTrigger>
          <TabsTrigger value="desktop-url">Claude Desktop</TabsTrigger>
        </TabsList>
        <TabsContent value="claude-code">
          <CodeBlock label="Claude Code" code={claudeCodeOauthCommand(url, serverName)} />
        </TabsContent>
        <TabsContent value="cursor-url">
          <CodeBlock label=".cursor/mcp.json" code={cursorOauthConfig(url, serverName)} />
        </TabsContent>
        <TabsContent value="desktop-url">
          <CodeBlock label="claude_desktop_config.json" code={claudeDesktopOauthConfig(url, serverName)} />
        </TabsContent>
      </Tabs>
    </div>
  );
}

/** Connecting with an API key in a header: works with every client, OAuth on or off. */
function KeyWay({ url, serverName }: { url: string; serverName: string }) {
  return (
    <div className="grid gap-3">
      <Tabs defaultValue="claude">
        <TabsList aria-label="Client configuration with an API key">
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

/**
 * The server's endpoint URL and ready-to-paste configuration for common MCP clients: by URL
 * alone (OAuth) first when `oauth` is on, with an API key second (or only).
 */
export function EndpointDetails({ url, serverName, id = "endpoint-url", oauth = false }: { url: string; serverName: string; id?: string; oauth?: boolean }) {
  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center gap-2">
        <code id={id} className="rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 font-mono text-sm break-all dark:border-zinc-800 dark:bg-zinc-950">
          {url}
        </code>
        <CopyButton value={url} label="Copy URL" aria-describedby={id} />
      </div>
      {oauth ? (
        <Tabs defaultValue="oauth">
          <TabsList aria-label="How to connect">
            <TabsTrigger value="oauth">By URL (sign in)</TabsTrigger>
            <TabsTrigger value="key">With an API key</TabsTrigger>
          </TabsList>
          <TabsContent value="oauth">
            <OauthWay url={url} serverName={serverName} />
          </TabsContent>
          <TabsContent value="key">
            <KeyWay url={url} serverName={serverName} />
          </TabsContent>
        </Tabs>
      ) : (
        <KeyWay url={url} serverName={serverName} />
      )}
    </div>
  );
}
