import type { Caller } from "@/lib/auth/caller";
import { publish, subscribe } from "@/lib/redis/pubsub";
import type { McpEndpoint } from "@/lib/mcp/surface/surface-types";
import { processState } from "@/lib/process-state";

/**
 * Calls by (credential, endpoint, request id), for a `notifications/cancelled` that reaches a
 * server instance other than the one serving the call (stateless serving, both eras). Nothing
 * in the protocol ties the two requests but what they both carry: the credential, the endpoint
 * they were sent to, and the id the client chose. A cancellation sent to `/mcp/A` never names
 * a call running on `/mcp/B` (or on `/mcp`), even under the same key and id. Two calls of one
 * credential under one id on one endpoint (two clients) are ambiguous: neither is cancelled.
 *
 * A cancellation no call here matches goes to the other instances over Redis pub/sub (the route
 * stateless answers take, lib/mcp/serve/connection-state/ask-stateless-client.ts) with the same three parts, and
 * each cancels its one matching call. Across instances the ambiguity cannot be seen: two
 * instances each running one such call would both cancel theirs.
 */

const CHANNEL = "mcp-cancel";

/**
 * Every caller of /mcp/demo is this one identity: its calls are cancelled only on their own
 * request (its signal), never by another request's notifications/cancelled — that could be
 * any visitor's.
 */
export const DEMO_IDENTITY = "anonymous";

const globalForCalls = processState<{ switchboardRunningCalls?: { running: Map<string, Set<AbortController>>; listening: boolean } }>();
const calls = (globalForCalls.switchboardRunningCalls ??= { running: new Map(), listening: false });

/**
 * The endpoint part of a call's key: the server's id, or for the shared endpoint the workspace
 * it serves to this caller (its key's), so one credential's calls on two endpoints never meet.
 */
export function callScopeOf(endpoint: McpEndpoint, caller: Caller | null): string {
  if (endpoint.kind === "server") return `server:${endpoint.serverId}`;
  if (endpoint.kind === "shared") return `shared:${caller?.kind === "user" ? (caller.apiKey?.workspaceId ?? "") : ""}`;
  return endpoint.kind;
}

const keyOf = (identity: string, scope: string, requestId: unknown) => JSON.stringify([identity, scope, requestId]);

/** Registers a running call under its key; returns its removal. Demo and unidentified calls are not registered. */
export function trackRunningCall(identity: string | undefined, scope: string | undefined, requestId: unknown, controller: AbortController): () => void {
  if (!identity || scope === undefined || identity === DEMO_IDENTITY) return () => undefined;
  listenForCancels();
  const key = keyOf(identity, scope, requestId);
  const set = calls.running.get(key) ?? new Set();
  calls.running.set(key, set.add(controller));
  return () => {
    set.delete(controller);
    if (set.size === 0 && calls.running.get(key) === set) calls.running.delete(key);
  };
}

/** Cancels the one call `identity` runs on `scope` under `requestId`: here, or on the instance running it. */
export async function cancelRunningCall(identity: string, scope: string, requestId: unknown): Promise<void> {
  if (identity === DEMO_IDENTITY) return;
  listenForCancels();
  if (cancelHere(identity, scope, requestId)) return;
  await publish(CHANNEL, JSON.stringify({ identity, scope, requestId }));
}

/** Whether this instance runs a call under the key (cancelled when it is the only one). */
function cancelHere(identity: string, scope: string, requestId: unknown): boolean {
  const set = calls.running.get(keyOf(identity, scope, requestId));
  if (!set) return false;
  if (set.size === 1) for (const controller of set) controller.abort(new Error("the client cancelled the call"));
  return true;
}

/** Subscribes this instance to cancellations landing elsewhere (once). */
function listenForCancels(): void {
  if (calls.listening) return;
  calls.listening = true;
  subscribe(CHANNEL, (raw) => {
    try {
      const { identity, scope, requestId } = JSON.parse(raw) as { identity?: unknown; scope?: unknown; requestId?: unknown };
      if (typeof identity === "string" && typeof scope === "string" && identity !== DEMO_IDENTITY) cancelHere(identity, scope, requestId);
    } catch {
      // Not ours to read: ignored.
    }
  });
}
