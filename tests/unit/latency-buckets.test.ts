import { describe, expect, it } from "vitest";
import { addHistogram, emptyHistogram, LATENCY_BOUNDS_MS, latencyBucket, latencyQuantile } from "@/lib/usage/latency-buckets";

/** p50/p95 as the usage dashboards read them from summed latency buckets. */

function histogramOf(latencies: number[]): number[] {
  const h = emptyHistogram();
  for (const ms of latencies) h[latencyBucket(ms)] += 1;
  return h;
}

describe("latency buckets", () => {
  it("puts a latency in the first bucket whose bound it does not exceed, the slowest in the open last one", () => {
    expect(latencyBucket(0)).toBe(0);
    expect(latencyBucket(1)).toBe(0);
    expect(latencyBucket(2)).toBe(1);
    expect(latencyBucket(101)).toBe(LATENCY_BOUNDS_MS.indexOf(150));
    expect(latencyBucket(600_000)).toBe(LATENCY_BOUNDS_MS.length);
  });

  it("reads p50 and p95 within the bucket of the true value", () => {
    // 90 calls around 40 ms, 10 around 800 ms: p50 is in (30, 50], p95 in (700, 1000].
    const h = histogramOf([...Array(90).fill(40), ...Array(10).fill(800)]);
    const p50 = latencyQuantile(h, 0.5)!;
    const p95 = latencyQuantile(h, 0.95)!;
    expect(p50).toBeGreaterThan(30);
    expect(p50).toBeLessThanOrEqual(50);
    expect(p95).toBeGreaterThan(700);
    expect(p95).toBeLessThanOrEqual(1000);
  });

  it("sums of histograms give the percentiles of all their calls; none gives null", () => {
    const fast = histogramOf(Array(50).fill(5));
    const slow = histogramOf(Array(50).fill(2500));
    const both = addHistogram(emptyHistogram(), fast);
    addHistogram(both, slow);
    expect(latencyQuantile(both, 0.25)!).toBeLessThanOrEqual(5);
    expect(latencyQuantile(both, 0.95)!).toBeGreaterThan(2000);
    expect(latencyQuantile(emptyHistogram(), 0.5)).toBeNull();
    expect(latencyQuantile(histogramOf([120_000]), 0.5)).toBe(60_000);
  });
});
