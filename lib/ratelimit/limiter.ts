import type { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterRes } from "rate-limiter-flexible";
import { logger } from "@/lib/log";
import { countRateLimitRejection } from "@/lib/ops/metrics";
import { commandRedis } from "@/lib/redis/redis-connections";
import { noteRedisDown, noteRedisUp, shouldUseRedis } from "@/lib/redis/redis-health";
import { processState } from "@/lib/process-state";

/**
 * Named fixed-window limiters shared by the whole process. With `REDIS_URL` the budget is
 * shared by every instance (RateLimiterRedis); while Redis is unreachable or stalled each
 * instance answers from its own memory budget rather than refusing everyone or waiting (see
 * lib/redis/redis-health.ts), and goes back to the shared budget when Redis returns. Without `REDIS_URL`
 * the budget is per process.
 */

export interface LimiterOptions {
  /** Requests allowed per window. */
  points: number;
  /** Whole seconds (Redis expires keys in seconds). */
  durationSec: number;
}

export interface Limiter {
  readonly name: string;
  readonly options: LimiterOptions;
  /** The shared budget and its connection, or null without REDIS_URL. */
  readonly redis: { readonly limiter: RateLimiterRedis; readonly client: Redis } | null;
  /** This process's budget: the only one without Redis, the fallback with it. */
  readonly memory: RateLimiterMemory;
}

export type ConsumeResult = { ok: true } | { ok: false; retryAfterMs: number };

const globalForLimiters = processState<{
  switchboardLimiters?: Map<string, Limiter>;
  switchboardAnnouncedMemoryLimiter?: boolean;
}>();

function createLimiter(name: string, options: LimiterOptions): Limiter {
  const keyPrefix = `sb:rl:${name}`;
  const { points, durationSec: duration } = options;
  const memory = new RateLimiterMemory({ keyPrefix, points, duration });
  const client = commandRedis();
  if (!client && !globalForLimiters.switchboardAnnouncedMemoryLimiter) {
    globalForLimiters.switchboardAnnouncedMemoryLimiter = true;
    logger.info("REDIS_URL is not set: rate limits are kept in this process only");
  }
  // No insuranceLimiter: consume() does the fallback itself, so it sees Redis failures.
  const redis = client
    ? { client, limiter: new RateLimiterRedis({ storeClient: client, keyPrefix, points, duration, rejectIfRedisNotReady: true }) }
    : null;
  return { name, options: { ...options }, redis, memory };
}

/** The limiter called `name`, created on first use. One name, one budget. */
export function getLimiter(name: string, options: LimiterOptions): Limiter {
  if (!Number.isInteger(options.points) || options.points < 1) throw new Error(`Limiter ${name}: points must be ≥ 1`);
  if (!Number.isInteger(options.durationSec) || options.durationSec < 1) throw new Error(`Limiter ${name}: durationSec must be a whole number ≥ 1`);
  globalForLimiters.switchboardLimiters ??= new Map();
  const limiters = globalForLimiters.switchboardLimiters;
  const existing = limiters.get(name);
  if (existing) {
    const same = existing.options.points === options.points && existing.options.durationSec === options.durationSec;
    if (!same) throw new Error(`Limiter ${name} already exists with a different budget`);
    return existing;
  }
  const limiter = createLimiter(name, options);
  limiters.set(name, limiter);
  return limiter;
}

/**
 * A refusal, recognised by shape: limiters live on globalThis and are shared by every server
 * bundle, each of which has its own copy of the RateLimiterRes class, so instanceof would miss.
 */
function isRateLimiterRes(value: unknown): value is RateLimiterRes {
  return !(value instanceof Error) && typeof (value as RateLimiterRes | null)?.msBeforeNext === "number";
}

/**
 * Spends `points` of `key`'s budget. When refused, says how long until the window reopens (the
 * key's remaining time to live in the store that refused). Never throws because of Redis.
 */
export async function consume(limiter: Limiter, key: string, points = 1): Promise<ConsumeResult> {
  const result = await spend(limiter, key, points);
  if (!result.ok) countRateLimitRejection(limiter.name);
  return result;
}

async function spend(limiter: Limiter, key: string, points: number): Promise<ConsumeResult> {
  const { redis, memory } = limiter;
  if (redis && (await shouldUseRedis(redis.client))) {
    try {
      await redis.limiter.consume(key, points);
      return { ok: true };
    } catch (rejection) {
      if (isRateLimiterRes(rejection)) return refused(rejection);
      // Timeout, lost connection, NOSCRIPT on a failed retry…: this request uses memory.
      noteRedisDown(rejection instanceof Error ? rejection.message : String(rejection));
    }
  }
  try {
    await memory.consume(key, points);
    return { ok: true };
  } catch (rejection) {
    if (isRateLimiterRes(rejection)) return refused(rejection);
    throw rejection;
  }
}

/**
 * Whether `key` has budget left, without spending any: refused once it has spent all of its
 * points in this window. For limits that count failures (spent after the fact) but must refuse
 * before the work is done. Never throws because of Redis.
 */
export async function peek(limiter: Limiter, key: string): Promise<ConsumeResult> {
  const { redis, memory, options } = limiter;
  let state: RateLimiterRes | null = null;
  if (redis && (await shouldUseRedis(redis.client))) {
    try {
      state = await redis.limiter.get(key);
    } catch (error) {
      noteRedisDown(error instanceof Error ? error.message : String(error));
      state = await memory.get(key);
    }
  } else {
    state = await memory.get(key);
  }
  if (!state || state.consumedPoints < options.points) return { ok: true };
  countRateLimitRejection(limiter.name);
  return refused(state);
}

function refused(rejection: RateLimiterRes): ConsumeResult {
  return { ok: false, retryAfterMs: Math.max(1, Math.ceil(rejection.msBeforeNext)) };
}

/** Forgets what `key` has spent, e.g. the per-account counter after a successful sign-in. */
export async function resetKey(limiter: Limiter, key: string): Promise<void> {
  await limiter.memory.delete(key);
  if (!limiter.redis || !(await shouldUseRedis(limiter.redis.client))) return;
  try {
    await limiter.redis.limiter.delete(key);
    noteRedisUp();
  } catch (error) {
    noteRedisDown(error instanceof Error ? error.message : String(error));
  }
}

/** Seconds for a `Retry-After` header: whole seconds, rounded up, at least 1. */
export function retryAfterSeconds(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / 1000));
}
