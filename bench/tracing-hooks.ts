/**
 * `npm run bench:tracing-hooks`: what the tracing hooks cost a tools/call with tracing off (issue
 * 28: "off … costing nothing measurable"). Times, in one process and in the same rounds, an
 * awaited call alone (the baseline) and the same call inside the five hooks a tools/call passes
 * (lib/observability/tracing.ts: the request, authentication, visibility, the upstream call, the
 * audit row's trace id), and prints the difference per call and as a share of a tools/call's
 * CPU (`--call-cpu-ms`, default 2.9: bench:mcp's figure, bench/README.md).
 */
import { currentTraceId, traced, traceRequest, traceUpstream, tracingOn } from "@/lib/observability/tracing";

const HELP = `Usage: npm run bench:tracing-hooks -- [--iterations N] [--rounds R] [--call-cpu-ms MS]

Times the tracing hooks of one tools/call with tracing off (no OTEL_* setting: run it without
any) against the bare awaited call, R rounds (default 3) of N iterations (default 2000000), and
prints ns per call and the share of a tools/call's MS of CPU (default 2.9, bench:mcp's figure).
`;

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  if (at < 0) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} needs a positive number`);
  return value;
}

async function nsPerCall(iterations: number, call: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) await call();
  return Number(process.hrtime.bigint() - started) / iterations;
}

async function main(): Promise<void> {
  if (process.argv.includes("--help") || process.argv.includes("-h")) return void process.stdout.write(HELP);
  const iterations = option("--iterations", 2_000_000);
  const rounds = option("--rounds", 3);
  const callCpuMs = option("--call-cpu-ms", 2.9);
  if (tracingOn()) throw new Error("tracing is on in this process: run without OTEL_* settings");
  const request = new Request("http://127.0.0.1/mcp/bench", { method: "POST" });
  const answer = new Response(null);
  const work = () => Promise.resolve(currentTraceId());
  const hooked = () =>
    traceRequest(request, "/mcp/{serverId}", () =>
      traced("authenticate", () => traced("visibility", () => traceUpstream("http", "GET", null, () => work().then(() => answer)))),
    );
  for (let round = 1; round <= rounds; round++) {
    const bare = await nsPerCall(iterations, work);
    const withHooks = await nsPerCall(iterations, hooked);
    const added = Math.max(0, withHooks - bare);
    const share = (added / (callCpuMs * 1e6)) * 100;
    console.log(`round ${round}: the call alone ${bare.toFixed(0)} ns; inside the five hooks ${withHooks.toFixed(0)} ns; added ${added.toFixed(0)} ns = ${share.toFixed(3)} % of a ${callCpuMs} ms tools/call`);
  }
}

void main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
