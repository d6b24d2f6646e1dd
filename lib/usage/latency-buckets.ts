/**
 * Latency is kept as counts per fixed bucket, so rows of different hours, servers or instances
 * add up exactly and a percentile can be read from any sum of them. The bounds grow about
 * 1.5× a step (1 ms to 60 s), so a percentile read from them is off by less than half a step.
 */

/** Upper bounds (inclusive, ms) of the buckets; one more bucket holds everything slower. */
export const LATENCY_BOUNDS_MS = [
  1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 70, 100, 150, 200, 300, 500, 700, 1000, 1500, 2000, 3000, 5000, 7000, 10_000, 15_000, 20_000, 30_000, 60_000,
] as const;

export const LATENCY_BUCKET_COUNT = LATENCY_BOUNDS_MS.length + 1;

/** The bucket a call of `ms` falls in. */
export function latencyBucket(ms: number): number {
  let i = 0;
  while (i < LATENCY_BOUNDS_MS.length && ms > LATENCY_BOUNDS_MS[i]) i++;
  return i;
}

export function emptyHistogram(): number[] {
  return new Array<number>(LATENCY_BUCKET_COUNT).fill(0);
}

/** `into` plus `more`, bucket by bucket (shorter arrays count as zeros). */
export function addHistogram(into: number[], more: readonly number[]): number[] {
  for (let i = 0; i < LATENCY_BUCKET_COUNT; i++) into[i] = (into[i] ?? 0) + (more[i] ?? 0);
  return into;
}

/**
 * The latency under which a share `q` (0.5, 0.95) of the calls finished, interpolated inside
 * its bucket; null without calls. The open last bucket answers its lower bound.
 */
export function latencyQuantile(histogram: readonly number[], q: number): number | null {
  const total = histogram.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = q * total;
  let seen = 0;
  for (let i = 0; i < LATENCY_BUCKET_COUNT; i++) {
    const count = histogram[i] ?? 0;
    if (count > 0 && seen + count >= rank) {
      const low = i === 0 ? 0 : LATENCY_BOUNDS_MS[i - 1];
      if (i >= LATENCY_BOUNDS_MS.length) return low;
      const high = LATENCY_BOUNDS_MS[i];
      return Math.round(low + ((high - low) * (rank - seen)) / count);
    }
    seen += count;
  }
  return LATENCY_BOUNDS_MS[LATENCY_BOUNDS_MS.length - 1];
}
