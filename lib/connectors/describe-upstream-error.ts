import { redactSecrets } from "@/lib/connectors/secret-headers";

/**
 * An upstream failure and its causes in one line (the SDK wraps the network error that says
 * what happened), with the connection's secret header values redacted: what discovery and
 * every forwarded request tell the admin or the caller.
 */
export function describeUpstreamError(e: unknown, headers: Record<string, string>): string {
  const parts: string[] = [];
  for (let err: unknown = e, depth = 0; err && depth < 4; err = (err as { cause?: unknown }).cause, depth++) {
    const message = err instanceof Error ? err.message : String(err);
    if (message && !parts.some((p) => p.includes(message))) parts.push(message);
  }
  const text = parts.join(": ").replace(/\s+/g, " ").trim() || "unknown error";
  return redactSecrets(text, headers).slice(0, 500);
}
