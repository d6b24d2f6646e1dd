import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract, type RateLimiterRes } from "rate-limiter-flexible";
import { logger } from "@/lib/log";
import { getRateLimitRedis } from "@/lib/ratelimit/redis-client";

/**
 * Named fixed-window limiters shared by the whole process. With `REDIS_URL` the budget is
 * shared by every instance (RateLimiterRedis); if Redis is unreachable each instance falls back
 * to its own memory budget rather than refusing everyone. Without `REDIS_URL` the budget is
 * per process.
 */

export interface LimiterOptions {
  /** Requests allowed per window. */
  points: number;
  durationSec: number;
}

export interface Limiter {
  readonly name: string;
  readonly options: LimiterOptions;
  readonly backend: RateLimiterAbstract;
}

export type ConsumeResult = { ok: true } | { ok: false; retryAfterMs: number };

const globalForLimiters = globalThis as unknown as {
  switchboardLimiters?: Map<string, Limiter>;
  switchboardAnnouncedMemoryLimiter?: boolean;
};

function createBackend(name: string, { points, durationSec }: LimiterOptions): RateLimiterAbstract {
  const keyPrefix = `sb:rl:${name}`;
  const memory = new RateLimiterMemory({ keyPrefix, points, duration: durationSec });
  const redis = getRateLimitRedis();
  if (!redis) {
    if (!globalForLimiters.switchboardAnnouncedMemoryLimiter) {
      globalForLimiters.switchboardAnnouncedMemoryLimiter = true;
      logger.info("REDIS_URL is not set: rate limits are kept in this process only");
    }
    return memory;
  }
  return new RateLimiterRedis({
    storeClient: redis,
    keyPrefix,
    points,
    duration: durationSec,
    rejectIfRedisNotReady: true,
    insuranceLimiter: memory,
  });
}

/** The limiter called `name`, created on first use. One name, one budget. */
export function getLimiter(name: string, options: LimiterOptions): Limiter {
  if (!Number.isInteger(options.points) || options.points < 1) throw new Error(`Limiter ${name}: points must be ≥ 1`);
  if (!(options.durationSec > 0)) throw new Error(`Limiter ${name}: durationSec must be > 0`);
  globalForLimiters.switchboardLimiters ??= new Map();
  const limiters = globalForLimiters.switchboardLimiters;
  const existing = limiters.get(name);
  if (existing) {
    const same = existing.options.points === options.points && existing.options.durationSec === options.durationSec;
    if (!same) throw new Error(`Limiter ${name} already exists with a different budget`);
    return existing;
  }
  const limiter: Limiter = { name, options: { ...options }, backend: createBackend(name, options) };
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

/** Spends `points` of `key`'s budget. When refused, says how long until the window reopens. */
export async function consume(limiter: Limiter, key: string, points = 1): Promise<ConsumeResult> {
  try {
    await limiter.backend.consume(key, points);
    return { ok: true };
  } catch (rejection) {
    if (isRateLimiterRes(rejection)) {
      return { ok: false, retryAfterMs: Math.max(1, Math.ceil(rejection.msBeforeNext)) };
    }
    throw rejection;
  }
}

/** Forgets what `key` has spent, e.g. the per-account counter after a successful sign-in. */
export async function resetKey(limiter: Limiter, key: string): Promise<void> {
  await limiter.backend.delete(key);
}

/** Seconds for a `Retry-After` header: whole seconds, rounded up, at least 1. */
export function retryAfterSeconds(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / 1000));
}
