"use client";

import type { ReactNode } from "react";
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

/** One client's snippet: its tab, the label of its code block and the code. */
interface Snippet {
  value: string;
  tab: string;
  label: string;
  code: string;
}

/** Connecting by URL alone (OAuth sign-in and consent in the browser): first, when the instance offers it. */
const oauthSnippets = (url: string, name: string): Snippet[] => [
  { value: "claude-code", tab: "Claude Code", label: "Claude Code", code: claudeCodeOauthCommand(url, name) },
  { value: "cursor-url", tab: "Cursor", label: ".cursor/mcp.json", code: cursorOauthConfig(url, name) },
  { value: "desktop-url", tab: "Claude Desktop", label: "claude_desktop_config.json", code: claudeDesktopOauthConfig(url, name) },
];

/** Connecting with an API key in a header: works with every client, OAuth on or off. */
const keySnippets = (url: string, name: string): Snippet[] => [
  { value: "claude", tab: "Claude Desktop", label: "claude_desktop_config.json", code: claudeDesktopConfig(url, name) },
  { value: "cursor", tab: "Cursor", label: ".cursor/mcp.json", code: cursorConfig(url, name) },
  { value: "curl", tab: "curl", label: "initialize with curl", code: curlInitialize(url) },
];

/** One way to connect: what to do, a tab per client with its snippet (the first open), and a note. */
function ConnectWay({ label, snippets, intro, note }: { label: string; snippets: Snippet[]; intro?: ReactNode; note?: ReactNode }) {
  return (
    <div className="grid gap-3">
      {intro && <p className="text-sm">{intro}</p>}
      <Tabs defaultValue={snippets[0].value}>
        <TabsList aria-label={label}>
          {snippets.map((s) => (
            <TabsTrigger key={s.value} value={s.value}>
              {s.tab}
            </TabsTrigger>
          ))}
        </TabsList>
        {snippets.map((s) => (
          <TabsContent key={s.value} value={s.value}>
            <CodeBlock label={s.label} code={s.code} />
          </TabsContent>
        ))}
      </Tabs>
      {note && <p className="text-xs text-zinc-500 dark:text-zinc-400">{note}</p>}
    </div>
  );
}

function OauthWay({ url, serverName }: { url: string; serverName: string }) {
  return (
    <ConnectWay
      label="Connect by URL"
      snippets={oauthSnippets(url, serverName)}
      intro="Paste the URL into the client: Claude.ai and ChatGPT (add a custom connector), Claude Code, Cursor, VS Code. It signs you in here and asks which servers it may use; no key to copy. You see and revoke it under Connected apps."
    />
  );
}

function KeyWay({ url, serverName }: { url: string; serverName: string }) {
  return (
    <ConnectWay
      label="Client configuration with an API key"
      snippets={keySnippets(url, serverName)}
      note={
        <>
          Replace <code className="font-mono">{KEY_PLACEHOLDER}</code> with an API key of this workspace (API keys page).
        </>
      }
    />
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
