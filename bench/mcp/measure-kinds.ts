import autocannon from "autocannon";
import { cpuMs, processTree } from "../read-proc";
import type { Kind } from "./define-kinds";
import type { HttpCall } from "./mcp-wire";

/**
 * Interleaved A/B measurement: in every round each kind is measured on the product, then at
 * on its baseline, so a slow spell of a shared machine lands on both sides of a ratio.
 * Around each measurement the CPU time of the serving processes is read from /proc, and after
 * each the side is left to finish what it was still computing.
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

const IDLE_SLICE_MS = 250;
/** Idle: under a tenth of a core over a slice (the clock tick is 10 ms). */
const IDLE_CPU_MS = IDLE_SLICE_MS / 10;
const SETTLE_LIMIT_MS = 60_000;

/**
 * Waits until the process tree of `root` is idle. When autocannon stops it abandons the
 * requests in flight, and the server goes on computing them (16 slow tools/list answers are
 * seconds of CPU on a small machine): left alone, that work would be billed to, and slow down,
 * the next measurement — the other side's. Returns the ms waited.
 */
async function settle(root: number): Promise<number> {
  const started = Date.now();
  let before = cpuMs(processTree(root)).total;
  while (Date.now() - started < SETTLE_LIMIT_MS) {
    await new Promise((resolve) => setTimeout(resolve, IDLE_SLICE_MS));
    const now = cpuMs(processTree(root)).total;
    if (now - before < IDLE_CPU_MS) break;
    before = now;
  }
  return Date.now() - started;
}

async function settled(side: string, root: number, log: (line: string) => void): Promise<void> {
  const waited = await settle(root);
  if (waited >= 1000) log(`  ${side}: ${(waited / 1000).toFixed(1)} s until the abandoned requests were done`);
}

function logFailures(side: string, run: Run, log: (line: string) => void): void {
  if (run.failures) log(`  ${side}: ${run.failures} failed (${Object.entries(run.failed).map(([what, n]) => `${what}: ${n}`).join(", ")})`);
}

export async function measureKinds(kinds: Kind[], roots: CpuRoots, s: Settings, log: (line: string) => void): Promise<KindResult[]> {
  const results = kinds.map((k) => ({ name: k.name, baselineLabel: k.baselineLabel, product: [] as Run[], baseline: [] as Run[] }));
  const sides = (k: Kind) => [["product", k.product, roots.app], ["baseline", k.baseline, roots[k.baselineRoot]]] as const;
  if (s.warmup > 0) {
    log(`warming up (${s.warmup} s per kind and side)`);
    for (const k of kinds) {
      for (const [side, call, root] of sides(k)) {
        await load(call, s.warmup, s.connections);
        await settled(side, root, log);
      }
    }
  }
  for (let round = 1; round <= s.rounds; round++) {
    for (const [i, k] of kinds.entries()) {
      log(`round ${round}/${s.rounds}: ${k.name}`);
      for (const [side, call, root] of sides(k)) {
        const run = await measure(call, root, s);
        logFailures(side, run, log);
        results[i][side].push(run);
        await settled(side, root, log);
      }
    }
  }
  return results;
}
