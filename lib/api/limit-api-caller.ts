import type { Caller } from "@/lib/auth/caller";
import { RateLimitedError } from "@/lib/errors";
import { consume, getLimiter } from "@/lib/ratelimit/limiter";
import { setting } from "@/lib/config/settings";

/**
 * Per-credential budget of the admin JSON API (API_RATE_LIMIT requests per
 * API_RATE_WINDOW_SEC, default 600 a minute). The instance credential is the operator's own
 * automation and is not limited.
 */
export async function limitApiCaller(caller: Caller): Promise<void> {
  if (caller.kind === "instance") return;
  const limiter = getLimiter("api", {
    points: setting("API_RATE_LIMIT"),
    durationSec: setting("API_RATE_WINDOW_SEC"),
  });
  const key = caller.apiKey ? `key:${caller.apiKey.id}` : `user:${caller.userId}`;
  const result = await consume(limiter, key);
  if (!result.ok) throw new RateLimitedError(result.retryAfterMs);
}
