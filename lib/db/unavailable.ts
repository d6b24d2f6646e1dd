import { logger } from "@/lib/log";
import { processState } from "@/lib/process-state";

/**
 * Recognises "the database is not there right now" among the errors a query can throw, so the
 * HTTP layer answers 503 (and the MCP layer a JSON-RPC internal error) instead of a 500.
 *
 * The shapes come from three layers: Prisma's own codes (P1001 can't reach, …), the pg driver
 * adapter's error kinds (meta.driverAdapterError.cause.kind), and plain errors of the pg driver
 * that reach us unwrapped (connect and query timeouts from lib/db/client.ts).
 */

const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections", "TlsConnectionError"]);
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EPIPE"]);
/** SQLSTATE: class 08 connection exception; 57P01-03 shutdown / cannot connect now; 53300 too many connections. */
const SQLSTATE = /^(08|57P0[1-3]$|53300$)/;
const MESSAGES =
  /Can't reach database server|Connection terminated|Query read timeout|timeout exceeded when trying to connect|timeout expired|the database system is (starting up|shutting down|in recovery mode)|terminating connection due to administrator command/i;

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: { cause?: { kind?: unknown; code?: unknown; originalCode?: unknown } } };
}

/** True when `error` (or what it wraps) says PostgreSQL is unreachable, stalled or shutting down. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error as ErrorLike | undefined, depth = 0; e && typeof e === "object" && depth < 5; e = e.cause as ErrorLike, depth++) {
    if (e.name === "PrismaClientInitializationError") return true;
    if (typeof e.code === "string" && (PRISMA_CODES.has(e.code) || SOCKET_CODES.has(e.code))) return true;
    // A pg error of a statement sent as plain SQL (lib/db/run-plain-sql.ts) carries its SQLSTATE as `code`.
    if (typeof e.code === "string" && e.code.length === 5 && SQLSTATE.test(e.code)) return true;
    const cause = e.meta?.driverAdapterError?.cause;
    if (cause && typeof cause.kind === "string" && ADAPTER_KINDS.has(cause.kind)) return true;
    const sqlState = cause?.originalCode ?? cause?.code;
    if (typeof sqlState === "string" && SQLSTATE.test(sqlState)) return true;
    if (typeof e.message === "string" && MESSAGES.test(e.message)) return true;
  }
  return false;
}

const LOG_INTERVAL_MS = 30_000;
const globalForDbLog = processState<{ switchboardDbDownLoggedAt?: number }>();

/** Logs that requests fail because the database is away — at most once every 30 s, not per request. */
export function noteDatabaseUnavailable(error: unknown): void {
  const now = Date.now();
  if (now - (globalForDbLog.switchboardDbDownLoggedAt ?? 0) < LOG_INTERVAL_MS) return;
  globalForDbLog.switchboardDbDownLoggedAt = now;
  const reason = error instanceof Error ? error.message.split("\n").filter(Boolean).at(-1) : String(error);
  logger.warn({ reason }, "database unavailable: requests that need it are answered 503 until it returns");
}
