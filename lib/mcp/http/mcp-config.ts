/**
 * Settings of the MCP endpoints, read from the environment on every use so tests (and an
 * operator's restart) see changes without a rebuild. Invalid numbers fall back to defaults.
 */

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

function positiveNumber(name: string, fallback: number): number {
  const value = Number(process.env[name]?.trim() || NaN);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

export const mcpConfig = {
  /** `MCP_STATEFUL_SESSIONS=true` keeps 2025-era sessions; stateless otherwise. */
  statefulSessions: () => process.env.MCP_STATEFUL_SESSIONS?.trim().toLowerCase() === "true",
  /** Idle minutes after which a session is evicted (`MCP_SESSION_IDLE_MIN`, default 30). */
  sessionIdleMs: () => positiveNumber("MCP_SESSION_IDLE_MIN", 30) * 60_000,
  /** Live sessions kept per process (`MCP_MAX_SESSIONS`, default 1000); the least recently used goes first. */
  maxSessions: () => positiveInt("MCP_MAX_SESSIONS", 1000),
  /** How often live sessions and subscriptions look for configuration changes (ms). */
  reconcileIntervalMs: () => positiveInt("MCP_RECONCILE_INTERVAL_MS", 2000),
  /** Largest accepted request body (`MCP_MAX_BODY_BYTES`, default 4 MiB). */
  maxBodyBytes: () => positiveInt("MCP_MAX_BODY_BYTES", 4 * 1024 * 1024),
  /** Requests per credential per window (`MCP_RATE_LIMIT` per `MCP_RATE_WINDOW_SEC`, default 600/60). */
  rateLimit: () => ({ points: positiveInt("MCP_RATE_LIMIT", 600), durationSec: positiveInt("MCP_RATE_WINDOW_SEC", 60) }),
  /** Requests per client address to /mcp/demo (`MCP_DEMO_RATE_LIMIT` per `MCP_DEMO_RATE_WINDOW_SEC`, default 60/60). */
  demoRateLimit: () => ({ points: positiveInt("MCP_DEMO_RATE_LIMIT", 60), durationSec: positiveInt("MCP_DEMO_RATE_WINDOW_SEC", 60) }),
};
