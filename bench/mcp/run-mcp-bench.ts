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
import { defineKinds, type Kind, PLACEHOLDER_ENDPOINTS } from "./define-kinds";
import { type CpuRoots, measureKinds } from "./measure-kinds";
import { formatSessionMemory, measureSessionMemory, SESSION_MEMORY, type SessionMemory } from "./measure-sessions";
import { sendPatiently } from "./mcp-wire";
import { HELP, type Options, parseArgs } from "./parse-options";
import { formatFloorTable, formatTable, summarize } from "./print-results";
import { sinkReport } from "./serve-otlp-sink";
import { type Child, startChild } from "./start-child";
import { summarizeProfiles } from "./summarize-profile";

const log = (line: string) => console.error(`[bench:mcp] ${line}`);

const SEED_ENV = ["DATABASE_URL", "DB_CONNECT_TIMEOUT_MS", "DB_QUERY_TIMEOUT_MS"];

/** Seeds through lib/: DATABASE_URL must be set before lib/db/client.ts is first imported. */
async function seed(app: StartedApp, upstream: Child) {
  const saved = Object.fromEntries(SEED_ENV.map((name) => [name, process.env[name]]));
  process.env.DATABASE_URL = app.databaseUrl;
  // Seeding is set-up, not measurement: on a loaded machine the product's 1 s connect timeout
  // would fail the run before anything is measured.
  process.env.DB_CONNECT_TIMEOUT_MS ??= "30000";
  process.env.DB_QUERY_TIMEOUT_MS ??= "120000";
  const { seedTenant, closeDatabase } = await import("./seed-tenant");
  const { seedSharedWorkspace } = await import("./seed-shared-workspace");
  const data = buildTenantData();
  const started = Date.now();
  const tenant = await seedTenant(data, { app: app.url, upstream: `http://127.0.0.1:${upstream.port}` });
  const shared = await seedSharedWorkspace(tenant, app.url);
  await closeDatabase();
  // A second app instance (the memory phase) inherits this environment: not the seed's timeouts.
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  log(`seeded the tenant through lib/ in ${((Date.now() - started) / 1000).toFixed(1)} s (server ${tenant.serverId}; shared workspace of ${shared.serverIds.length} servers)`);
  return { data, tenant, shared };
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
    await k.prepare?.();
    k.check(await sendPatiently(k.product), await sendPatiently(k.baseline), k.floor && (await sendPatiently(k.floor)));
    log(`checked: ${k.name}`);
  }
}

/** Captures what `url` answers the member and starts a bare server serving it from memory. */
async function startBare(url: string, key: string, file: string, resources: boolean): Promise<Child> {
  const surface = await captureSurface(url, key, { resources });
  fs.writeFileSync(file, JSON.stringify(surface));
  const toolsBytes = Buffer.byteLength(JSON.stringify({ tools: surface.tools }));
  log(`captured from ${new URL(url).pathname}: ${surface.tools.length} tools (${(toolsBytes / 1024).toFixed(0)} KB), ${surface.resources.length} resources, ${surface.instructions.length} characters of instructions`);
  return startChild("serve-bare.ts", [file]);
}

/** With --otlp: the receiver that drops what it gets, and the OTEL_* settings pointing the app at it. */
async function startOtlpSink(options: Options, stops: (() => Promise<void>)[]): Promise<{ env: Record<string, string>; report(): Promise<string> } | null> {
  if (!options.otlp) return null;
  const sink = await startChild("serve-otlp-sink.ts");
  stops.push(sink.stop);
  const url = `http://127.0.0.1:${sink.port}`;
  log(`tracing on: OTLP http/protobuf to ${url} (accepts and drops)`);
  return {
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: url, OTEL_SERVICE_NAME: "switchboard-bench" },
    report: () => sinkReport(url),
  };
}

type Seeded = Awaited<ReturnType<typeof seed>>;

/** The selected rps kinds: validated, then measured; their summary is printed. */
async function runKinds(options: Options, app: StartedApp, upstream: Child, seeded: Seeded, stops: (() => Promise<void>)[]) {
  const { data, tenant, shared } = seeded;
  const chosen = defineKinds(PLACEHOLDER_ENDPOINTS, data, options.upstreamDelayMs).filter((k) => options.kinds.has(k.name));
  const baselines = new Set(chosen.map((k) => k.baselineRoot));
  if (baselines.size === 0) return null;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-bench-mcp-"));
  stops.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  const e = { ...PLACEHOLDER_ENDPOINTS, product: `${app.url}/mcp/${tenant.serverId}`, upstream: `http://127.0.0.1:${upstream.port}`, memberKey: tenant.memberKey, shared: `${app.url}/mcp`, sharedKey: shared.memberKey };
  const roots: CpuRoots = { app: app.supervisor.pid!, bare: 0, bareShared: 0, upstream: upstream.pid, relay: 0 };
  if (chosen.some((k) => k.floor)) {
    const relay = await startChild("serve-relay.ts", [e.upstream]);
    stops.push(relay.stop);
    [e.relay, roots.relay] = [`http://127.0.0.1:${relay.port}/mcp`, relay.pid];
  }
  if (baselines.has("bare")) {
    const bare = await startBare(e.product, e.memberKey, path.join(dir, "surface.json"), true);
    stops.push(bare.stop);
    [e.bare, roots.bare] = [`http://127.0.0.1:${bare.port}/mcp`, bare.pid];
  }
  if (baselines.has("bareShared")) {
    const bare = await startBare(e.shared, e.sharedKey, path.join(dir, "shared-surface.json"), false);
    stops.push(bare.stop);
    [e.bareShared, roots.bareShared] = [`http://127.0.0.1:${bare.port}/mcp`, bare.pid];
  }
  const kinds = defineKinds(e, data, options.upstreamDelayMs).filter((k) => options.kinds.has(k.name));
  await validate(kinds);
  log(`app CPU is read over its process tree: ${describeTree(app.supervisor.pid!)}`);
  const results = await measureKinds(kinds, roots, options, log);
  const summary = summarize(results);
  console.log(`\n${formatTable(summary, options)}\n`);
  const floor = formatFloorTable(summary, options);
  if (floor) console.log(`${floor}\n`);
  return { results, summary };
}

async function run(options: Options, stops: (() => Promise<void>)[]): Promise<void> {
  const upstream = await startChild("serve-upstream.ts");
  stops.push(upstream.stop);
  const otlp = await startOtlpSink(options, stops);
  const app = await startProductionApp(log, { ...profilingEnv(options.cpuProf), ...otlp?.env });
  stops.push(app.stop);
  const seeded = await seed(app, upstream);
  const measured = await runKinds(options, app, upstream, seeded, stops);
  let memory: SessionMemory | null = null;
  if (options.kinds.has(SESSION_MEMORY)) {
    const tools = seeded.data.connectors.reduce((n, c) => n + c.tools.length, 0);
    memory = await measureSessionMemory(app.databaseUrl, { path: `/mcp/${seeded.tenant.serverId}`, key: seeded.tenant.memberKey, tools }, log);
    console.log(`\n${formatSessionMemory(memory)}\n`);
  }
  if (otlp) console.log(await otlp.report());
  console.log(`Machine: ${os.cpus().length} CPU(s), load average ${os.loadavg().map((l) => l.toFixed(1)).join(" / ")} at the end of the run.`);
  if (options.json) {
    const settings = { ...options, kinds: [...options.kinds] };
    fs.writeFileSync(options.json, JSON.stringify({ settings, loadavg: os.loadavg(), results: measured?.results ?? [], summary: measured?.summary ?? [], memory }, null, 2));
  }
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
