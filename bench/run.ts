/**
 * npm run bench: requests per second of the admin JSON API and the MCP endpoint, each printed
 * as a ratio to a baseline (GET /api/health, no database) measured in the same run on the same
 * machine — absolute numbers vary between machines, the ratios much less.
 */
import autocannon from "autocannon";
import { startProductionApp, type BenchApp } from "./app";
import { createFixtures, type Fixtures } from "./fixtures";

const HELP = `Usage: npm run bench -- [options]

Starts the production app (as \`npm start\` does: builds when stale, embedded PostgreSQL in a
temporary directory, rate limits lifted, warn-level logs) or uses a running one, creates an
MCP server with N tools through the admin API, then measures with autocannon:

  baseline            GET  /api/health                 (no database)
  admin: list orgs    GET  /api/v1/orgs                (user API key: auth + limit + query)
  admin: get server   GET  /api/v1/servers/<id>
  mcp: initialize     POST /mcp/<id>  initialize       (2025-11-25, stateless)
  mcp: tools/list     POST /mcp/<id>  tools/list       (2025-11-25, stateless; N tools)

Options:
  --url URL           measure a running instance instead of starting one (needs --key)
  --key KEY           its INSTANCE_API_KEY (fixtures are created with it)
  --tools N           tools on the benchmark server (default 200)
  --connections C     concurrent connections (default 16)
  --duration S        seconds per measurement (default 10)
  --json              print the results as JSON as well
  --help              this text

Against a running instance, its rate limits apply: raise API_RATE_LIMIT and MCP_RATE_LIMIT
there, or the run reports 429s (counted as non-2xx). Differences under ~10 % between two runs
are noise on small machines.
`;

interface Options {
  url?: string;
  key?: string;
  tools: number;
  connections: number;
  duration: number;
  json: boolean;
}

interface Scenario {
  name: string;
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

interface Measured {
  name: string;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  ratio: number;
}

const log = (line: string) => console.error(`[bench] ${line}`);

function parseArgs(argv: string[]): Options | null {
  if (argv.includes("--help") || argv.includes("-h")) return null;
  const value = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const positive = (name: string, fallback: number) => {
    const raw = value(name);
    const n = raw === undefined ? fallback : Number(raw);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${name} needs a whole number ≥ 1`);
    return n;
  };
  const options = {
    url: value("--url")?.replace(/\/+$/, ""),
    key: value("--key") ?? process.env.INSTANCE_API_KEY,
    tools: positive("--tools", 200),
    connections: positive("--connections", 16),
    duration: positive("--duration", 10),
    json: argv.includes("--json"),
  };
  if (options.url && !options.key) throw new Error("--url needs --key (the instance's INSTANCE_API_KEY)");
  return options;
}

function mcpRequest(method: string, params: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: "2.0", id: 1, method, params });
}

function scenarios(fixtures: Fixtures): Scenario[] {
  const user = { authorization: `Bearer ${fixtures.userKey}` };
  const mcp = { ...user, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };
  const initialize = mcpRequest("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1.0.0" } });
  return [
    { name: "baseline: GET /api/health", method: "GET", path: "/api/health" },
    { name: "admin: list orgs", method: "GET", path: "/api/v1/orgs", headers: user },
    { name: "admin: get server", method: "GET", path: `/api/v1/servers/${fixtures.serverId}`, headers: user },
    { name: "mcp: initialize", method: "POST", path: `/mcp/${fixtures.serverId}`, headers: mcp, body: initialize },
    { name: "mcp: tools/list", method: "POST", path: `/mcp/${fixtures.serverId}`, headers: mcp, body: mcpRequest("tools/list", {}) },
  ];
}

/** One request first: a scenario that does not answer 2xx is reported, not measured. */
async function probe(url: string, s: Scenario): Promise<string | null> {
  const response = await fetch(url + s.path, { method: s.method, headers: s.headers, body: s.body });
  const text = await response.text();
  return response.ok ? null : `${response.status} ${text.slice(0, 200)}`;
}

async function measure(url: string, s: Scenario, options: Options): Promise<Omit<Measured, "ratio">> {
  const result = await autocannon({
    url: url + s.path,
    method: s.method,
    headers: s.headers,
    body: s.body,
    connections: options.connections,
    duration: options.duration,
  });
  return {
    name: s.name,
    requestsPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

function printTable(rows: Measured[], options: Options): void {
  console.log(`\n${options.connections} connections, ${options.duration} s each, ${options.tools} tools on the server\n`);
  console.log(["scenario".padEnd(28), "req/s".padStart(9), "× baseline".padStart(11), "p50 ms".padStart(8), "p99 ms".padStart(8), "non-2xx".padStart(8)].join(" "));
  for (const r of rows) {
    console.log(
      [r.name.padEnd(28), r.requestsPerSec.toFixed(0).padStart(9), r.ratio.toFixed(3).padStart(11), String(r.p50Ms).padStart(8), String(r.p99Ms).padStart(8), String(r.non2xx + r.errors).padStart(8)].join(" "),
    );
  }
}

async function main(argv: string[]): Promise<void> {
  const options = parseArgs(argv);
  if (!options) return void process.stdout.write(HELP);
  let app: BenchApp | undefined;
  try {
    app = options.url ? { url: options.url, key: options.key!, stop: async () => {} } : await startProductionApp(log);
    log(`creating a server with ${options.tools} tools through the admin API`);
    const fixtures = await createFixtures(app.url, app.key, options.tools);
    const rows: Measured[] = [];
    let baseline = 0;
    for (const s of scenarios(fixtures)) {
      const problem = await probe(app.url, s);
      if (problem) {
        log(`skipping "${s.name}": ${problem}`);
        continue;
      }
      log(`measuring "${s.name}"`);
      const m = await measure(app.url, s, options);
      baseline ||= m.requestsPerSec;
      rows.push({ ...m, ratio: baseline ? m.requestsPerSec / baseline : 0 });
    }
    printTable(rows, options);
    if (options.json) console.log(JSON.stringify({ options: { ...options, key: undefined }, results: rows }, null, 2));
  } finally {
    await app?.stop();
  }
}

main(process.argv.slice(2)).catch((error: Error) => {
  console.error(`[bench] failed: ${error.message}`);
  process.exitCode = 1;
});
