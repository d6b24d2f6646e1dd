import { setting } from "@/lib/config/settings";

/**
 * Settings of the MCP endpoints, read on every use (lib/config/settings.ts caches per raw value)
 * so tests and an operator's restart see changes without a rebuild.
 */
export const mcpConfig = {
  /** `MCP_STATEFUL_SESSIONS=true` keeps 2025-era sessions; stateless otherwise. */
  statefulSessions: () => setting("MCP_STATEFUL_SESSIONS"),
  /** Idle minutes after which a session is evicted (`MCP_SESSION_IDLE_MIN`, default 30). */
  sessionIdleMs: () => setting("MCP_SESSION_IDLE_MIN") * 60_000,
  /** Live sessions kept per process (`MCP_MAX_SESSIONS`, default 1000); the least recently used goes first. */
  maxSessions: () => setting("MCP_MAX_SESSIONS"),
  /** How often live sessions and subscriptions look for configuration changes (ms). */
  reconcileIntervalMs: () => setting("MCP_RECONCILE_INTERVAL_MS"),
  /** Largest accepted request body (`MCP_MAX_BODY_BYTES`, default 4 MiB). */
  maxBodyBytes: () => setting("MCP_MAX_BODY_BYTES"),
  /** Requests per credential per window (`MCP_RATE_LIMIT` per `MCP_RATE_WINDOW_SEC`, default 600/60). */
  rateLimit: () => ({ points: setting("MCP_RATE_LIMIT"), durationSec: setting("MCP_RATE_WINDOW_SEC") }),
  /** Requests per client address to /mcp/demo (`MCP_DEMO_RATE_LIMIT` per `MCP_DEMO_RATE_WINDOW_SEC`, default 60/60). */
  demoRateLimit: () => ({ points: setting("MCP_DEMO_RATE_LIMIT"), durationSec: setting("MCP_DEMO_RATE_WINDOW_SEC") }),
};
