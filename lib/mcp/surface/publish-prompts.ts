import { type CompleteResult, type GetPromptResult } from "@modelcontextprotocol/client";
import type { Caller } from "@/lib/auth/caller";
import type { CallFlight } from "@/lib/connectors/runtime/call-flight";
import { getUpstreamPrompt } from "@/lib/connectors/pipeline/get-prompt";
import { requestUpstream } from "@/lib/connectors/runtime/upstream-request";
import type { CallerView, SnapshotConnector, SnapshotPrompt } from "@/lib/mcp/visibility/snapshot-types";
import { lazy } from "@/lib/mcp/surface/surface-types";
import { currentAccess } from "@/lib/mcp/surface/recheck-access";

/**
 * The prompts an endpoint publishes (issue 12 point 1), built once per published view like
 * the tool list, and bound to one caller for prompts/get: the upstream's prompt under its
 * exposed name, fetched over the caller's own upstream connection. Completions
 * (`completion/complete`) go to the connector that owns the prompt or the resource template.
 */

export interface WirePrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: Array<{ name: string; description?: string; required?: boolean }>;
}

export interface PublishedPrompt {
  prompt: SnapshotPrompt;
  view: CallerView;
}

export interface PublishedPrompts {
  list: WirePrompt[];
  byName: Map<string, PublishedPrompt>;
  signature: () => string;
}

export type CompletionRef = { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string };

export interface PromptSet {
  readonly list: WirePrompt[];
  /** The prompt published as `name`; null when this caller has no such prompt (hidden or missing alike). */
  get(name: string, args: Record<string, string>, signal?: AbortSignal, flight?: CallFlight): Promise<GetPromptResult> | null;
  /** Equal for equal prompt lists: live sessions compare it to decide on prompts/list_changed. */
  signature(): string;
}

export function publishPrompts(prompts: PublishedPrompt[], exposedName: (p: PublishedPrompt) => string = (p) => p.prompt.exposedName): PublishedPrompts {
  const named = prompts.map((p) => ({ name: exposedName(p), p }));
  const list = named.map(({ name, p: { prompt } }) => ({
    name,
    ...(prompt.title ? { title: prompt.title } : {}),
    ...(prompt.description ? { description: prompt.description } : {}),
    ...(prompt.arguments ? { arguments: prompt.arguments } : {}),
  }));
  return { list, byName: new Map(named.map(({ name, p }) => [name, p])), signature: lazy(() => JSON.stringify(list)) };
}

export const NO_PROMPTS: PromptSet = { list: [], get: () => null, signature: () => "[]" };

export function bindPromptSet(caller: Caller, prompts: PublishedPrompts): PromptSet {
  return {
    list: prompts.list,
    get(name, args, signal, flight) {
      const found = prompts.byName.get(name);
      return found ? getCurrentPrompt(caller, found, args, signal, flight) : null;
    },
    signature: prompts.signature,
  };
}

/**
 * completion/complete for a published prompt (by its exposed name) or a published resource
 * template (by its URI template): asked of the owning connector with the upstream's own
 * name. Null when the reference is not this caller's, or its upstream declared no completions.
 */
export function completeThrough(
  caller: Caller,
  owner: { connector: SnapshotConnector; view: CallerView; upstreamRef: CompletionRef } | null,
  params: { argument: { name: string; value: string }; context?: { arguments?: Record<string, string> } },
  signal?: AbortSignal,
): Promise<CompleteResult> | null {
  if (!owner || !owner.connector.upstream.completions) return null;
  return currentAccess(caller, owner.view, owner.connector.id).then((now) => {
    // The reference is no longer this caller's: nothing to offer, as for one it never had.
    if (!now || !now.connector.upstream.completions || !stillOffers(now.connector, owner.upstreamRef)) return NO_COMPLETION;
    return requestUpstream({
      caller,
      view: now.view,
      connector: now.connector,
      signal,
      work: (client, options) => client.complete({ ref: owner.upstreamRef, argument: params.argument, ...(params.context ? { context: params.context } : {}) }, options),
    });
  });
}

const NO_COMPLETION: CompleteResult = { completion: { values: [], total: 0, hasMore: false } };

/** Whether the connector, as the caller sees it now, still has the prompt or template `ref` names (in the upstream's terms). */
function stillOffers(connector: SnapshotConnector, ref: CompletionRef): boolean {
  if (ref.type === "ref/prompt") return connector.prompts.some((p) => p.name === ref.name);
  return connector.upstream.resourceTemplates.some((t) => t.uriTemplate === ref.uri);
}

/** prompts/get through the call pipeline, which reads the caller's access again first (lib/connectors/pipeline/get-prompt.ts). */
function getCurrentPrompt(caller: Caller, found: PublishedPrompt, args: Record<string, string>, signal?: AbortSignal, flight?: CallFlight): Promise<GetPromptResult> {
  return getUpstreamPrompt({ caller, view: found.view, prompt: found.prompt, args, signal, flight });
}
