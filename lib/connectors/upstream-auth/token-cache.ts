import { LRUCache } from "lru-cache";
import { processState } from "@/lib/process-state";

/**
 * Access tokens opened from their sealed rows, in this process's memory only, for a short
 * while: every upstream request asks for its token, and the row changes only on a refresh
 * (here, or on another instance: then the upstream's 401 sends us back to the row).
 */
export interface CachedToken {
  accessToken: string;
  /** ms since the epoch; null when the server gave no lifetime. */
  expiresAt: number | null;
}

const globalForTokens = processState<{ switchboardUpstreamTokens?: LRUCache<string, CachedToken> }>();
const cache = (globalForTokens.switchboardUpstreamTokens ??= new LRUCache({ max: 10_000, ttl: 60_000 }));

export function cachedToken(connectionId: string): CachedToken | undefined {
  return cache.get(connectionId);
}

export function rememberToken(connectionId: string, token: CachedToken): void {
  cache.set(connectionId, token);
}

export function forgetCachedToken(connectionId: string): void {
  cache.delete(connectionId);
}
