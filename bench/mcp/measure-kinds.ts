import autocannon from "autocannon";
import { cpuMs, processTree } from "../read-proc";
import type { Kind } from "./define-kinds";
import type { HttpCall } from "./mcp-wire";

/**
 * Interleaved A/B measurement: in every round each kind is measured on the product, then on
 * its bare relay when it has one (tools/call), then on its baseline, so a slow spell of a
 * shared machine lands on every side of a ratio.
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
  /** The bare relay of the tools/call kinds (0 when none was started). */
  relay: number;
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
  /** The part of cpuMs spent in the upstream API's process (tools/call kinds, every side; else 0). */
  upstreamCpuMs: number;
  failures: number;
  /** What the failures were: non-2xx answers by status, connection errors, timeouts. */
  failed: Record<string, number>;
}

export interface KindResult {
  name: string;
  baselineLabel: Kind["baselineLabel"];
  product: Run[];
  baseline: Run[];
  /** The bare relay's runs (tools/call kinds only). */
  floor?: Run[];
}

type SideName = "product" | "floor" | "baseline";

/** Whose CPU a side's requests cost: the tools/call kinds' sides all include the upstream's. */
interface Side {
  name: SideName;
  call: HttpCall;
  roots: number[];
  upstream: number | null;
}

async function load(call: HttpCall, seconds: number, connections: number) {
  return autocannon({ url: call.url, method: call.method, headers: call.headers, body: call.body, connections, duration: seconds, timeout: 30 });
}

/** The trees are listed at each reading: PostgreSQL backends may start during a run. */
const cpuOf = (roots: number[]) => cpuMs(roots.flatMap((root) => processTree(root)));

async function measure(side: Side, s: Settings): Promise<Run> {
  const upstream = () => (side.upstream ? cpuMs(processTree(side.upstream)).total : 0);
  const [before, upstreamBefore] = [cpuOf(side.roots), upstream()];
  const result = await load(side.call, s.duration, s.connections);
  const [after, upstreamAfter] = [cpuOf(side.roots), upstream()];
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
    upstreamCpuMs: upstreamAfter - upstreamBefore,
    failures: result.non2xx + result.errors + result.timeouts,
    failed,
  };
}

const IDLE_SLICE_MS = 250;
/** Idle: under a tenth of a core over a slice (the clock tick is 10 ms). */
const IDLE_CPU_MS = IDLE_SLICE_MS / 10;
const SETTLE_LIMIT_MS = 60_000;

/**
 * Waits until the process trees of `roots` are idle. When autocannon stops it abandons the
 * requests in flight, and the server goes on computing them (16 slow tools/list answers are
 * seconds of CPU on a small machine): left alone, that work would be billed to, and slow down,
 * the next measurement — the other side's. Returns the ms waited.
 */
async function settle(roots: number[]): Promise<number> {
  const started = Date.now();
  let before = cpuOf(roots).total;
  while (Date.now() - started < SETTLE_LIMIT_MS) {
    await new Promise((resolve) => setTimeout(resolve, IDLE_SLICE_MS));
    const now = cpuOf(roots).total;
    if (now - before < IDLE_CPU_MS) break;
    before = now;
  }
  return Date.now() - started;
}

async function settled(side: string, roots: number[], log: (line: string) => void): Promise<void> {
  const waited = await settle(roots);
  if (waited >= 1000) log(`  ${side}: ${(waited / 1000).toFixed(1)} s until the abandoned requests were done`);
}

function logFailures(side: string, run: Run, log: (line: string) => void): void {
  if (run.failures) log(`  ${side}: ${run.failures} failed (${Object.entries(run.failed).map(([what, n]) => `${what}: ${n}`).join(", ")})`);
}

function sidesOf(k: Kind, roots: CpuRoots): Side[] {
  const upstream = k.baselineRoot === "upstream" ? roots.upstream : null;
  const withUpstream = (pids: number[]) => (upstream ? [...pids, upstream] : pids);
  return [
    { name: "product", call: k.product, roots: withUpstream([roots.app]), upstream },
    ...(k.floor ? [{ name: "floor" as const, call: k.floor, roots: withUpstream([roots.relay]), upstream }] : []),
    { name: "baseline", call: k.baseline, roots: [roots[k.baselineRoot]], upstream },
  ];
}

export async function measureKinds(kinds: Kind[], roots: CpuRoots, s: Settings, log: (line: string) => void): Promise<KindResult[]> {
  const results: KindResult[] = kinds.map((k) => ({ name: k.name, baselineLabel: k.baselineLabel, product: [], baseline: [], ...(k.floor ? { floor: [] } : {}) }));
  if (s.warmup > 0) {
    log(`warming up (${s.warmup} s per kind and side)`);
    for (const k of kinds) {
      await k.prepare?.();
      for (const side of sidesOf(k, roots)) {
        await load(side.call, s.warmup, s.connections);
        await settled(side.name, side.roots, log);
      }
    }
  }
  for (let round = 1; round <= s.rounds; round++) {
    for (const [i, k] of kinds.entries()) {
      log(`round ${round}/${s.rounds}: ${k.name}`);
      await k.prepare?.();
      for (const side of sidesOf(k, roots)) {
        const run = await measure(side, s);
        logFailures(side.name, run, log);
        results[i][side.name]!.push(run);
        await settled(side.name, side.roots, log);
      }
    }
  }
  return results;
}
