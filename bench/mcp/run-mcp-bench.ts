/**
 * npm run bench:mcp — the MCP hot path of the product against a bare MCP SDK v2 server
 * answering the same lists from memory, measured in one run (see bench/README.md).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startProductionApp, type StartedApp } from "../app";
import { describeTree } from "../read-proc";
import { buildTenantData } from "./build-tenant-data";
import { captureSurface } from "./capture-surface";
import { defineKinds, type Kind } from "./define-kinds";
import { measureKinds, type Settings } from "./measure-kinds";
import { sendPatiently } from "./mcp-wire";
import { formatTable, summarize } from "./print-results";
import { type Child, startChild } from "./start-child";
import { summarizeProfiles } from "./summarize-profile";

const HELP = `Usage: npm run bench:mcp -- [options]

Starts the production app (as \`npm start\` does: builds when stale, embedded PostgreSQL in a
temporary directory, rate limits lifted, warn-level logs), seeds one tenant through the
product's own lib/ functions — 50 http connectors × 20 tools with JSON Schemas (~0.9 MB
tools/list), 200 stored resources of 1–4 KB, 30 applied skills, ~6 KB of instructions, a
member whose MCP role whitelists all 1,000 tools in a workspace with tool whitelists on —
and starts, as separate processes, a local upstream HTTP API for the connectors and a bare
MCP SDK v2 low-level server serving the product's own answers from memory. After checking
each kind's first answer on both sides, it measures with autocannon, interleaved
product/baseline in every round:

  initialize, tools/list, resources/list, resources/read   (2025-11-25, stateless)
  tools/call of an http tool  vs  the same request sent straight to the upstream
  server/discover, tools/list, resources/read              (2026-07-28, per-request _meta)

and prints rps, p50, p99 and server CPU ms per request for both sides (the app's Next.js
process tree and its PostgreSQL; the bare server's process) with their ratios. Linux only.

Options:
  --duration S      seconds per measurement (default 10)
  --connections C   concurrent connections (default 16)
  --rounds N        interleaved rounds (default 3)
  --warmup S        seconds of unrecorded load per kind and side first (default 3)
  --quick           smoke run: --duration 2 --rounds 1 --warmup 1 (explicit options win)
  --json FILE       also write the raw runs and the summary as JSON to FILE
  --cpu-prof DIR    profile the app's Node processes (sampling, via a preload) and, once
                    the app has stopped, print the top self-time functions of the Next.js
                    server; the .cpuprofile files stay in DIR (open them in Chrome DevTools).
                    Profiling slows the app: take the table from a run without it
  -h, --help        this text

Differences under ~10 % between two runs are noise on small machines; compare ratios of one run.
`;

interface Options extends Settings {
  json: string | null;
  cpuProf: string | null;
}

function parseArgs(argv: string[]): Options | null {
  if (argv.includes("--help") || argv.includes("-h")) return null;
  const quick = argv.includes("--quick");
  const defaults = quick ? { duration: 2, connections: 16, rounds: 1, warmup: 1 } : { duration: 10, connections: 16, rounds: 3, warmup: 3 };
  const options: Options = { ...defaults, json: null, cpuProf: null };
  const numeric: Record<string, keyof Settings> = { "--duration": "duration", "--connections": "connections", "--rounds": "rounds", "--warmup": "warmup" };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--quick") continue;
    if (arg === "--json") options.json = argv[++i] ?? "";
    else if (arg === "--cpu-prof") options.cpuProf = path.resolve(argv[++i] ?? "");
    else if (numeric[arg]) {
      const n = Number(argv[++i]);
      if (!Number.isInteger(n) || n < (arg === "--warmup" ? 0 : 1)) throw new Error(`${arg} needs a whole number${arg === "--warmup" ? " ≥ 0" : " ≥ 1"}`);
      options[numeric[arg]] = n;
    } else throw new Error(`unknown option ${arg} (see --help)`);
  }
  if (options.json === "") throw new Error("--json needs a file name");
  if (options.cpuProf === path.resolve("")) throw new Error("--cpu-prof needs a directory");
  return options;
}

const log = (line: string) => console.error(`[bench:mcp] ${line}`);

/** Seeds through lib/: DATABASE_URL must be set before lib/db/client.ts is first imported. */
async function seed(app: StartedApp, upstream: Child) {
  process.env.DATABASE_URL = app.databaseUrl;
  // Seeding is set-up, not measurement: on a loaded machine the product's 1 s connect timeout
  // would fail the run before anything is measured.
  process.env.DB_CONNECT_TIMEOUT_MS ??= "30000";
  process.env.DB_QUERY_TIMEOUT_MS ??= "120000";
  const { seedTenant, closeDatabase } = await import("./seed-tenant");
  const data = buildTenantData();
  const started = Date.now();
  const tenant = await seedTenant(data, { app: app.url, upstream: `http://127.0.0.1:${upstream.port}` });
  await closeDatabase();
  log(`seeded the tenant through lib/ in ${((Date.now() - started) / 1000).toFixed(1)} s (server ${tenant.serverId})`);
  return { data, tenant };
}

/** NODE_OPTIONS for the app's Node processes when profiling (Node 20 refuses --cpu-prof there). */
function profilingEnv(dir: string | null): Record<string, string> {
  if (!dir) return {};
  fs.mkdirSync(dir, { recursive: true });
  const preload = path.join(process.cwd(), "bench", "mcp", "profile-process.mjs");
  return { BENCH_CPU_PROF_DIR: dir, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import ${preload}`.trim() };
}

async function validate(kinds: Kind[]): Promise<void> {
  for (const k of kinds) {
    k.check(await sendPatiently(k.product), await sendPatiently(k.baseline));
    log(`checked: ${k.name}`);
  }
}

async function run(options: Options, stops: (() => Promise<void>)[]): Promise<void> {
  const upstream = await startChild("serve-upstream.ts");
  stops.push(upstream.stop);
  const app = await startProductionApp(log, profilingEnv(options.cpuProf));
  stops.push(app.stop);
  const { data, tenant } = await seed(app, upstream);
  const productUrl = `${app.url}/mcp/${tenant.serverId}`;
  const surface = await captureSurface(productUrl, tenant.memberKey);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-bench-mcp-"));
  stops.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  const surfaceFile = path.join(dir, "surface.json");
  fs.writeFileSync(surfaceFile, JSON.stringify(surface));
  const toolsBytes = Buffer.byteLength(JSON.stringify({ tools: surface.tools }));
  log(`captured ${surface.tools.length} tools (${(toolsBytes / 1024).toFixed(0)} KB), ${surface.resources.length} resources, ${surface.instructions.length} characters of instructions`);
  const bare = await startChild("serve-bare.ts", [surfaceFile]);
  stops.push(bare.stop);
  const kinds = defineKinds({ product: productUrl, bare: `http://127.0.0.1:${bare.port}/mcp`, upstream: `http://127.0.0.1:${upstream.port}`, memberKey: tenant.memberKey }, data);
  await validate(kinds);
  log(`app CPU is read over its process tree: ${describeTree(app.supervisor.pid!)}`);
  const results = await measureKinds(kinds, { app: app.supervisor.pid!, bare: bare.pid, upstream: upstream.pid }, options, log);
  const summary = summarize(results);
  console.log(`\n${formatTable(summary, options)}\n`);
  console.log(`Machine: ${os.cpus().length} CPU(s), load average ${os.loadavg().map((l) => l.toFixed(1)).join(" / ")} at the end of the run.`);
  if (options.json) fs.writeFileSync(options.json, JSON.stringify({ settings: options, loadavg: os.loadavg(), results, summary }, null, 2));
}

async function main(): Promise<void> {
  let options: Options | null;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`${(e as Error).message}\n\n${HELP}`);
    process.exit(2);
  }
  if (!options) return void process.stdout.write(HELP);
  if (!fs.existsSync("/proc/self/stat")) {
    console.error("This benchmark reads server CPU time from /proc: run it on Linux.");
    process.exit(2);
  }
  const stops: (() => Promise<void>)[] = [];
  try {
    await run(options, stops);
  } catch (e) {
    log(`failed: ${(e as Error).message}`);
    process.exitCode = 1;
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  }
  // The profiles are written as the app's processes exit, so only after the stops above.
  if (options.cpuProf && process.exitCode !== 1) console.log(`\n${summarizeProfiles(options.cpuProf)}\n`);
}

void main();
