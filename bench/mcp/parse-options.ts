import path from "node:path";
import { buildTenantData } from "./build-tenant-data";
import { delayedToolCallName, kindNames } from "./define-kinds";
import type { Settings } from "./measure-kinds";
import { SESSION_MEMORY } from "./measure-sessions";

/** The command line of `npm run bench:mcp` (bench/mcp/run-mcp-bench.ts). */

const DEFAULT_DELAY_MS = 20;

export const HELP = `Usage: npm run bench:mcp -- [options]

Starts the production app (as \`npm start\` does: builds when stale, embedded PostgreSQL in a
temporary directory, rate limits lifted, warn-level logs), seeds one tenant through the
product's own lib/ functions — 50 http connectors × 20 tools with JSON Schemas (~0.9 MB
tools/list), 200 stored resources of 1–4 KB, 30 applied skills, ~6 KB of instructions, a
member whose MCP role whitelists all 1,000 tools in a workspace with tool whitelists on; a
second workspace of 10 servers × 5 of those connectors (100 tools each) with its own member
for the shared endpoint /mcp — and starts, as separate processes, a local upstream HTTP API
for the connectors and bare MCP SDK v2 low-level servers serving the product's own answers
from memory (one per endpoint). After checking each kind's first answer on both sides, it
measures with autocannon, interleaved product/baseline in every round:

  initialize, tools/list, resources/list, resources/read   (2025-11-25, stateless)
  tools/call of an http tool on three sides: the product, a bare relay (a bare SDK v2
    server whose tools/call sends the same request: the protocol's own floor) and the same
    request sent straight to the upstream; then the same against the upstream answering
    after a timer of --upstream-delay-ms (switched in the upstream's process at run time)
  server/discover, tools/list, resources/read              (2026-07-28, per-request _meta)
  tools/list /mcp (shared): the 10 servers' 1,000 tools    (2025-11-25, stateless)

and prints rps, p50, p99 and server CPU ms per request for both sides (the app's Next.js
process tree and its PostgreSQL; the bare server's process; for tools/call each side's
processes plus the upstream's) with their ratios, and for tools/call a second table of the
three sides with product ÷ direct, relay ÷ direct and product ÷ relay. Then the
memory phase ("${SESSION_MEMORY}"): a second app instance on the same database with
MCP_STATEFUL_SESSIONS=true, 1,000 sessions opened (initialize, notifications/initialized,
one tools/list each) and the Next.js server's resident memory growth printed. Linux only.

Options:
  --duration S      seconds per measurement (default 10)
  --connections C   concurrent connections (default 16)
  --rounds N        interleaved rounds (default 3)
  --warmup S        seconds of unrecorded load per kind and side first (default 3)
  --upstream-delay-ms N
                    ms the upstream waits before answering in the delayed tools/call kind
                    (default ${DEFAULT_DELAY_MS}, ≥ 1); its name carries N:
                      ${delayedToolCallName(DEFAULT_DELAY_MS)}
  --quick           smoke run: --duration 2 --rounds 1 --warmup 1 (explicit options win)
  --kinds A,B,…     only these kinds, by their names as printed (comma-separated, quoted):
${allKindNames().map((n) => `                      ${n}`).join("\n")}
  --json FILE       also write the raw runs and the summary as JSON to FILE
  --cpu-prof DIR    profile the app's Node processes (sampling, via a preload) and, once
                    the app has stopped, print the top self-time functions of the Next.js
                    server; the .cpuprofile files stay in DIR (open them in Chrome DevTools).
                    Profiling slows the app: take the table from a run without it
  --otlp            tracing on: the app exports its spans (OTLP http/protobuf, the default)
                    to a local receiver that accepts and drops (bench/mcp/serve-otlp-sink.ts,
                    its own process, not counted as the app's CPU); the run ends with how
                    many export requests it received. Compare with a run without it
  -h, --help        this text

Differences under ~10 % between two runs are noise on small machines; compare ratios of one run.
`;

export interface Options extends Settings {
  /** What the upstream waits before answering in the delayed tools/call kind. */
  upstreamDelayMs: number;
  json: string | null;
  cpuProf: string | null;
  /** Tracing on, towards a local OTLP receiver that drops what it gets. */
  otlp: boolean;
  /** The kinds to run, by name (every one unless --kinds). */
  kinds: Set<string>;
}

/** Every rps kind, then the memory phase: what --kinds accepts. */
export function allKindNames(upstreamDelayMs = DEFAULT_DELAY_MS): string[] {
  return [...kindNames(buildTenantData(), upstreamDelayMs), SESSION_MEMORY];
}

/**
 * The names in a comma-separated list; a name that itself holds a comma ("tools/call http
 * tool, upstream answering in N ms …") is put back together from its pieces.
 */
function splitKinds(list: string, known: string[]): string[] {
  const pieces = list.split(",");
  const names: string[] = [];
  for (let i = 0; i < pieces.length; i++) {
    let name = pieces[i];
    const continues = (n: string) => !known.includes(n.trim()) && known.some((k) => k.startsWith(`${n.trim()},`));
    while (continues(name) && i + 1 < pieces.length) name += `,${pieces[++i]}`;
    names.push(name.trim());
  }
  return names.filter(Boolean);
}

function parseKinds(list: string | undefined, upstreamDelayMs: number): Set<string> {
  const known = allKindNames(upstreamDelayMs);
  const asked = splitKinds(list ?? "", known);
  if (asked.length === 0) throw new Error("--kinds needs at least one kind name");
  const unknown = asked.filter((n) => !known.includes(n));
  if (unknown.length) throw new Error(`unknown kind(s): ${unknown.map((n) => `"${n}"`).join(", ")}; the kinds are:\n  ${known.join("\n  ")}`);
  return new Set(asked);
}

const NUMERIC: Record<string, keyof Settings | "upstreamDelayMs"> = { "--duration": "duration", "--connections": "connections", "--rounds": "rounds", "--warmup": "warmup", "--upstream-delay-ms": "upstreamDelayMs" };

/** The options, or null for --help; throws naming a wrong option. */
export function parseArgs(argv: string[]): Options | null {
  if (argv.includes("--help") || argv.includes("-h")) return null;
  const quick = argv.includes("--quick");
  const defaults = quick ? { duration: 2, connections: 16, rounds: 1, warmup: 1 } : { duration: 10, connections: 16, rounds: 3, warmup: 3 };
  const options: Options = { ...defaults, upstreamDelayMs: DEFAULT_DELAY_MS, json: null, cpuProf: null, otlp: false, kinds: new Set() };
  let kinds: string | undefined | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--quick") continue;
    if (arg === "--json") options.json = argv[++i] ?? "";
    else if (arg === "--otlp") options.otlp = true;
    else if (arg === "--cpu-prof") options.cpuProf = path.resolve(argv[++i] ?? "");
    // Read once every option is: the delayed kind's name carries --upstream-delay-ms.
    else if (arg === "--kinds") kinds = argv[++i];
    else if (NUMERIC[arg]) {
      const n = Number(argv[++i]);
      if (!Number.isInteger(n) || n < (arg === "--warmup" ? 0 : 1)) throw new Error(`${arg} needs a whole number${arg === "--warmup" ? " ≥ 0" : " ≥ 1"}`);
      options[NUMERIC[arg]] = n;
    } else throw new Error(`unknown option ${arg} (see --help)`);
  }
  options.kinds = kinds === null ? new Set(allKindNames(options.upstreamDelayMs)) : parseKinds(kinds, options.upstreamDelayMs);
  if (options.json === "") throw new Error("--json needs a file name");
  if (options.cpuProf === path.resolve("")) throw new Error("--cpu-prof needs a directory");
  return options;
}
