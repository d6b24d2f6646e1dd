import autocannon from "autocannon";
import { cpuMs, processTree } from "../read-proc";
import type { Kind } from "./define-kinds";
import type { HttpCall } from "./mcp-wire";

/**
 * Interleaved A/B measurement: in every round each kind is measured on the product, then at
 * once on its baseline, so a slow spell of a shared machine lands on both sides of a ratio.
 * Around each measurement the CPU time of the serving processes is read from /proc.
 */

export interface Settings {
  duration: number;
  connections: number;
  rounds: number;
  warmup: number;
}

/** Whose CPU time a side costs: the root of its process tree (the app's includes PostgreSQL). */
export interface CpuRoots {
  app: number;
  bare: number;
  /** The bare server serving the shared endpoint's 1,000 tools. */
  bareShared: number;
  upstream: number;
}

export interface Run {
  rps: number;
  p50: number;
  p99: number;
  /** Mean latency: autocannon's percentiles have a 1 ms resolution, the mean does not. */
  meanMs: number;
  requests: number;
  cpuMs: number;
  /** The part of cpuMs spent in PostgreSQL's processes (0 for the bare server and upstream). */
  postgresCpuMs: number;
  failures: number;
  /** What the failures were: non-2xx answers by status, connection errors, timeouts. */
  failed: Record<string, number>;
}

export interface KindResult {
  name: string;
  baselineLabel: Kind["baselineLabel"];
  product: Run[];
  baseline: Run[];
}

async function load(call: HttpCall, seconds: number, connections: number) {
  return autocannon({ url: call.url, method: call.method, headers: call.headers, body: call.body, connections, duration: seconds, timeout: 30 });
}

async function measure(call: HttpCall, root: number, s: Settings): Promise<Run> {
  const before = cpuMs(processTree(root));
  const result = await load(call, s.duration, s.connections);
  // The tree is listed again: PostgreSQL backends may have started during the run.
  const after = cpuMs(processTree(root));
  const failed: Record<string, number> = {};
  for (const [status, { count }] of Object.entries(result.statusCodeStats ?? {})) if (!status.startsWith("2")) failed[`HTTP ${status}`] = count;
  if (result.errors) failed.errors = result.errors;
  if (result.timeouts) failed.timeouts = result.timeouts;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    meanMs: result.latency.average,
    requests: result.requests.total,
    cpuMs: after.total - before.total,
    postgresCpuMs: after.postgres - before.postgres,
    failures: result.non2xx + result.errors + result.timeouts,
    failed,
  };
}

export async function measureKinds(kinds: Kind[], roots: CpuRoots, s: Settings, log: (line: string) => void): Promise<KindResult[]> {
  const results = kinds.map((k) => ({ name: k.name, baselineLabel: k.baselineLabel, product: [] as Run[], baseline: [] as Run[] }));
  if (s.warmup > 0) {
    log(`warming up (${s.warmup} s per kind and side)`);
    for (const k of kinds) for (const call of [k.product, k.baseline]) await load(call, s.warmup, s.connections);
  }
  for (let round = 1; round <= s.rounds; round++) {
    for (const [i, k] of kinds.entries()) {
      log(`round ${round}/${s.rounds}: ${k.name}`);
      const product = await measure(k.product, roots.app, s);
      const baseline = await measure(k.baseline, roots[k.baselineRoot], s);
      for (const [side, run] of [["product", product], ["baseline", baseline]] as const) {
        if (run.failures) log(`  ${side}: ${run.failures} failed (${Object.entries(run.failed).map(([what, n]) => `${what}: ${n}`).join(", ")})`);
      }
      results[i].product.push(product);
      results[i].baseline.push(baseline);
    }
  }
  return results;
}
