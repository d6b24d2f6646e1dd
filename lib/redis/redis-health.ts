import type { Redis } from "ioredis";
import { logger } from "@/lib/log";
import { setRedisUp } from "@/lib/ops/metrics";
import { processState } from "@/lib/process-state";

/**
 * The health watch of the command connection (redis-connections.ts): whether rate-limit
 * commands should go to Redis right now — a small circuit breaker in front of the shared limiter.
 *
 * - Redis down (connection refused or lost): ioredis keeps reconnecting on its own; until its
 *   `ready` event, every limiter answers from this instance's memory without trying Redis.
 * - Redis stalled (the connection is open but nothing answers): the first command waits for
 *   ioredis' command timeout, then the breaker opens and later requests skip Redis at once. A
 *   background PING, at most one per second, closes it again when Redis answers.
 * - The transition is logged once each way, never per request.
 */

const PROBE_INTERVAL_MS = 1_000;
/** How long the very first request waits for the initial connection before using memory. */
const FIRST_CONTACT_WAIT_MS = 1_000;

interface HealthState {
  up: boolean | null;
  nextProbeAt: number;
  probing: boolean;
  firstContact?: Promise<void>;
}

const globalForHealth = processState<{ switchboardRedisHealth?: HealthState }>();

function state(): HealthState {
  return (globalForHealth.switchboardRedisHealth ??= { up: null, nextProbeAt: 0, probing: false });
}

/** Redis answered: shared limits apply (again). */
export function noteRedisUp(): void {
  const s = state();
  if (s.up === false) logger.info("rate-limit Redis is reachable again: shared rate limits resume");
  s.up = true;
  setRedisUp(true);
}

/** Redis failed or went away: limits fall back to memory, said once per outage. */
export function noteRedisDown(reason: string): void {
  const s = state();
  if (s.up !== false) {
    logger.warn({ reason }, "rate-limit Redis is unavailable: rate limits fall back to this instance's in-process limiter until it returns");
  }
  s.up = false;
  s.nextProbeAt = Date.now() + PROBE_INTERVAL_MS;
  setRedisUp(false);
}

/** Wires a fresh client's connection events to the breaker. */
export function watchRedis(client: Redis): void {
  const s = state();
  client.on("ready", noteRedisUp);
  client.on("error", (error: Error) => noteRedisDown(error.message || String(error)));
  client.on("close", () => {
    if (s.up) noteRedisDown("connection closed");
  });
  s.firstContact = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, FIRST_CONTACT_WAIT_MS);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    client.once("ready", done);
    client.once("error", done);
  });
}

/**
 * True when the next rate-limit command should be sent to Redis. Waits (briefly, once) for the
 * first connection so that a fresh instance does not start on its private budget.
 */
export async function shouldUseRedis(client: Redis): Promise<boolean> {
  const s = state();
  if (s.up === null && s.firstContact) await s.firstContact;
  if (client.status !== "ready") return false;
  if (s.up !== false) return true;
  probeInBackground(client, s);
  return false;
}

/** Connected but marked down (a stall): one PING at a time, once a second, decides. */
function probeInBackground(client: Redis, s: HealthState): void {
  if (s.probing || Date.now() < s.nextProbeAt) return;
  s.probing = true;
  client
    .ping()
    .then(() => noteRedisUp())
    .catch((error: Error) => noteRedisDown(error.message))
    .finally(() => {
      s.probing = false;
    });
}

/**
 * Resolves true once `client` is connected, false after `ms` or at its first error. A client
 * still making its first connection (a fresh instance's first /api/ready) is not down yet.
 */
export function waitUntilReady(client: Redis, ms: number): Promise<boolean> {
  if (client.status === "ready") return Promise.resolve(true);
  if (client.status === "end") return Promise.resolve(false);
  return new Promise<boolean>((resolve) => {
    const finish = (ready: boolean) => {
      clearTimeout(timer);
      client.off("ready", onReady);
      client.off("error", onError);
      resolve(ready);
    };
    const onReady = () => finish(true);
    const onError = () => finish(false);
    const timer = setTimeout(() => finish(false), ms);
    client.on("ready", onReady);
    client.on("error", onError);
  });
}
