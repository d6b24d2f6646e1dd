import type { KindResult, Run, Settings } from "./measure-kinds";

/**
 * The benchmark's table, as Markdown (it goes into bench/README.md as it is): per kind, both
 * sides' requests per second (mean over rounds), p50 and p99 latency (median over rounds),
 * server CPU ms per request (total CPU over total requests) and the ratios of the same run.
 */

export interface Side {
  rps: number;
  p50: number;
  p99: number;
  meanMs: number;
  cpuPerRequest: number;
  postgresCpuPerRequest: number;
  upstreamCpuPerRequest: number;
  failures: number;
}

/** One side over another, same run: a ÷ b, and the mean latency a − b in ms. */
export interface Comparison {
  rps: number;
  meanLatency: number;
  p99: number;
  cpuPerRequest: number;
  addedMeanMs: number;
}

/** The tools/call kinds' three sides compared. */
export interface FloorComparison {
  productOverDirect: Comparison;
  relayOverDirect: Comparison;
  productOverRelay: Comparison;
}

export interface Summary {
  name: string;
  baselineLabel: KindResult["baselineLabel"];
  product: Side;
  baseline: Side;
  rpsRatio: number;
  p50Ratio: number;
  /** The baseline's p50 was under autocannon's 1 ms resolution: p50Ratio compares mean latencies. */
  p50FromMeans: boolean;
  p99Ratio: number;
  /** tools/call kinds: the bare relay's side (the protocol's floor) and the three ratios. */
  floor?: Side;
  floorComparison?: FloorComparison;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function side(runs: Run[]): Side {
  const requests = runs.reduce((a, r) => a + r.requests, 0);
  return {
    rps: mean(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    meanMs: mean(runs.map((r) => r.meanMs)),
    cpuPerRequest: requests ? runs.reduce((a, r) => a + r.cpuMs, 0) / requests : 0,
    postgresCpuPerRequest: requests ? runs.reduce((a, r) => a + r.postgresCpuMs, 0) / requests : 0,
    upstreamCpuPerRequest: requests ? runs.reduce((a, r) => a + r.upstreamCpuMs, 0) / requests : 0,
    failures: runs.reduce((a, r) => a + r.failures, 0),
  };
}

const ratio = (a: number, b: number) => (b > 0 ? a / b : NaN);

function compare(a: Side, b: Side): Comparison {
  return {
    rps: ratio(a.rps, b.rps),
    meanLatency: ratio(a.meanMs, b.meanMs),
    p99: ratio(a.p99, b.p99),
    cpuPerRequest: ratio(a.cpuPerRequest, b.cpuPerRequest),
    addedMeanMs: a.meanMs - b.meanMs,
  };
}

function floorOf(r: KindResult, product: Side, direct: Side): Pick<Summary, "floor" | "floorComparison"> {
  if (!r.floor) return {};
  const relay = side(r.floor);
  return {
    floor: relay,
    floorComparison: { productOverDirect: compare(product, direct), relayOverDirect: compare(relay, direct), productOverRelay: compare(product, relay) },
  };
}

export function summarize(results: KindResult[]): Summary[] {
  return results.map((r) => {
    const [product, baseline] = [side(r.product), side(r.baseline)];
    const p50FromMeans = baseline.p50 < 1;
    return {
      name: r.name,
      baselineLabel: r.baselineLabel,
      product,
      baseline,
      rpsRatio: ratio(product.rps, baseline.rps),
      p50Ratio: p50FromMeans ? ratio(product.meanMs, baseline.meanMs) : ratio(product.p50, baseline.p50),
      p50FromMeans,
      p99Ratio: ratio(product.p99, baseline.p99),
      ...floorOf(r, product, baseline),
    };
  });
}

const int = (n: number) => Math.round(n).toLocaleString("en-US");
const ms = (n: number) => (n >= 10 ? n.toFixed(0) : n.toFixed(1));
const x = (n: number) => (Number.isFinite(n) ? (n >= 10 ? n.toFixed(0) : n.toFixed(2)) : "–");

export function formatTable(rows: Summary[], s: Settings): string {
  const header = [
    `${s.connections} connections, ${s.duration} s per measurement, ${s.rounds} round(s) interleaved product/baseline; baseline = bare SDK v2 server (tools/call: the same request sent straight to the upstream API).`,
    "",
    "| request | Switchboard rps | baseline rps | rps ratio | Switchboard p50 / p99 ms | baseline p50 / p99 ms | p50 ratio | p99 ratio | CPU ms/request: Switchboard (of it PostgreSQL) / baseline | failed |",
    "|---|---|---|---|---|---|---|---|---|---|",
  ];
  const lines = rows.map((r) => {
    const label = r.baselineLabel === "upstream" ? `${r.name} — vs direct upstream call` : r.name;
    const { product: p, baseline: b } = r;
    return `| ${label} | ${int(p.rps)} | ${int(b.rps)} | ${x(r.rpsRatio)} | ${ms(p.p50)} / ${ms(p.p99)} | ${ms(b.p50)} / ${ms(b.p99)} | ${x(r.p50Ratio)}×${r.p50FromMeans ? " †" : ""} | ${x(r.p99Ratio)}× | ${p.cpuPerRequest.toFixed(2)} (${p.postgresCpuPerRequest.toFixed(2)}) / ${b.cpuPerRequest.toFixed(2)} | ${p.failures} / ${b.failures} |`;
  });
  const footnote = rows.some((r) => r.p50FromMeans) ? ["", "† the baseline's p50 is under autocannon's 1 ms resolution: the ratio of mean latencies instead."] : [];
  return [...header, ...lines, ...footnote].join("\n");
}

const cpu = (s: Side) => `${s.cpuPerRequest.toFixed(2)} (${s.postgresCpuPerRequest.toFixed(2)}; ${s.upstreamCpuPerRequest.toFixed(2)})`;

/**
 * The tools/call kinds on their three sides — the product, the bare relay (the protocol's
 * floor) and the direct GET — and the ratios of the same run; null when none was measured.
 */
export function formatFloorTable(rows: Summary[], s: Settings): string | null {
  const measured = rows.filter((r) => r.floor && r.floorComparison);
  if (measured.length === 0) return null;
  const sides = measured.flatMap((r) => {
    const row = (label: string, d: Side) => `| ${r.name} | ${label} | ${int(d.rps)} | ${ms(d.p50)} / ${ms(d.p99)} | ${d.meanMs.toFixed(2)} | ${cpu(d)} | ${d.failures} |`;
    return [row("Switchboard", r.product), row("bare relay", r.floor!), row("direct GET", r.baseline)];
  });
  const ratios = measured.flatMap((r) => {
    const c = r.floorComparison!;
    const row = (label: string, q: Comparison) => `| ${r.name} | ${label} | ${x(q.rps)} | ${x(q.meanLatency)}× | ${x(q.p99)}× | ${x(q.cpuPerRequest)}× | ${q.addedMeanMs >= 0 ? "+" : ""}${q.addedMeanMs.toFixed(2)} |`;
    return [row("Switchboard ÷ direct", c.productOverDirect), row("bare relay ÷ direct", c.relayOverDirect), row("Switchboard ÷ bare relay", c.productOverRelay)];
  });
  return [
    `tools/call on three sides, ${s.connections} connections, interleaved in the same rounds: Switchboard, the bare relay (a bare SDK v2 server relaying the same GET: the protocol's floor), the direct GET to the upstream. CPU counts every process a side's requests run in, the upstream's included.`,
    "",
    "| request | side | rps | p50 / p99 ms | mean ms | CPU ms/request (of it PostgreSQL; upstream) | failed |",
    "|---|---|---|---|---|---|---|",
    ...sides,
    "",
    "| request | same-run ratio | rps | mean latency | p99 | CPU ms/request | mean latency added, ms |",
    "|---|---|---|---|---|---|---|",
    ...ratios,
  ].join("\n");
}
