"use client";

import { useEffect, useRef, useState } from "react";
import { AppBridge, PostMessageTransport, buildAllowAttribute } from "@modelcontextprotocol/ext-apps/app-bridge";
import type { ToolCallResult } from "@/lib/connectors/runtime/types";
import type { ActionResult } from "@/components/forms/action-result";
import { appDocument } from "@/components/servers/app-document";

export type ToolAppView = { uri: string; html: string; ui: Record<string, unknown> | null };
export type RunTool = (input: { tool: string; args: Record<string, unknown> }) => Promise<ActionResult<{ result: ToolCallResult; durationMs: number }>>;

const HOST = { name: "Switchboard console", version: "1.0.0" };

/**
 * A tool's MCP App, rendered as a host renders it (the host side of
 * `@modelcontextprotocol/ext-apps`): a sandboxed iframe, an AppBridge that hands the view the
 * tool's input and result, and the view's own tool calls sent through `run` — the same server
 * action as the Call tool button, so the same endpoint, the admin's role and the audit log.
 */
export function ToolAppFrame({ tool, view, args, result, run, nonce }: { tool: string; view: ToolAppView; args: Record<string, unknown>; result: ToolCallResult; run: RunTool; nonce: string }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [error, setError] = useState<string | null>(null);
  const ui = view.ui ?? {};
  useEffect(() => {
    const target = frame.current?.contentWindow;
    if (!target) return;
    const bridge = new AppBridge(null, HOST, { serverTools: {}, ...(ui.permissions ? { sandbox: { permissions: ui.permissions as never } } : {}) });
    bridge.oninitialized = () => {
      void bridge.sendToolInput({ arguments: args }).then(() => bridge.sendToolResult(result as never));
    };
    bridge.oncalltool = async (params) => {
      const answer = await run({ tool: params.name, args: (params.arguments ?? {}) as Record<string, unknown> });
      if (!answer.ok) throw new Error(answer.error);
      return answer.data.result as never;
    };
    bridge.connect(new PostMessageTransport(target, target)).catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
    return () => void bridge.close().catch(() => undefined);
    // The frame is made once per (view, call): a new result remounts it (its key).
  }, []); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <div className="grid gap-1">
      <iframe
        ref={frame}
        title={`${tool} app`}
        sandbox="allow-scripts"
        allow={buildAllowAttribute(ui.permissions as never)}
        srcDoc={appDocument(view.html, view.ui, nonce)}
        className={`h-80 w-full rounded-md bg-white ${ui.prefersBorder === false ? "" : "border border-zinc-200 dark:border-zinc-800"}`}
      />
      {error && <p className="text-sm text-red-700 dark:text-red-400">The app could not be connected: {error}</p>}
    </div>
  );
}
