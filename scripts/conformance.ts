/**
 * npm run conformance: the official MCP conformance suite (@modelcontextprotocol/conformance,
 * pinned in scripts/conformance/run-suite.ts), server scenarios, on both wires (2025-11-25 and
 * 2026-07-28, each revision's `--requirements`):
 *
 * 1. bare, against the project's own upstream fixture (tests/fixtures/conformance-upstream):
 *    every scored scenario must pass, with no baseline — it shows the upstream behind the
 *    product is whole before the product is measured;
 * 2. through /mcp/<fixture server>: the real route handler, connector runtime and an `mcp`
 *    connector whose upstream is that fixture, checked against conformance/baseline-<wire>.yml
 *    (or baseline-<wire>-stateless.yml), which list what the gateway does not carry yet.
 *
 *   npm run conformance                      stateful 2025-era sessions (MCP_STATEFUL_SESSIONS=true)
 *   npm run conformance -- --stateless       the default stateless serving
 *   npm run conformance -- --skip-bare       step 2 only
 *   npm run conformance -- --scenario NAME   one scenario, on both wires
 *
 * The database is a throwaway embedded PostgreSQL unless DATABASE_URL is set. The suite's
 * client cannot send credentials, so this runner adds the fixture's API key to each request it
 * forwards to the route handler; Host and Origin are passed through untouched.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import type net from "node:net";
import path from "node:path";
import { ensureDatabase } from "./conformance/database";
import { ensureSuite, runSuite, SUITE_VERSION, type Suite, WIRES } from "./conformance/run-suite";
import { runMain } from "./conformance/run-main";

const ROOT = process.cwd();
const TOOLS_DIR = path.join(ROOT, ".conformance");

const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h")) {
  console.log(`Usage: npm run conformance [-- --stateless] [-- --skip-bare] [-- --scenario NAME]

Runs the MCP conformance suite (${SUITE_VERSION}) server scenarios on both wires (2025-11-25,
2026-07-28): first bare against the project's upstream fixture (every scored scenario must
pass), then through /mcp/<fixture server>, compared with conformance/baseline-<wire>.yml (or
baseline-<wire>-stateless.yml), which list what the gateway does not carry yet.

  --stateless        serve statelessly (the default product mode) instead of stateful sessions
  --skip-bare        skip the bare run of the fixture
  --scenario NAME    run one scenario only

Needs Node >= 22 for the suite itself; it is installed on first use into .conformance/.
DATABASE_URL: use that database instead of a throwaway embedded PostgreSQL.`);
  process.exit(0);
}
const stateless = args.includes("--stateless");
const skipBare = args.includes("--skip-bare");
const scenario = args.includes("--scenario") ? args[args.indexOf("--scenario") + 1] : undefined;
const log = (line: string) => console.log(`[conformance] ${line}`);
const cleanups: Array<() => Promise<void>> = [];

async function main(): Promise<number> {
  const suite = ensureSuite(TOOLS_DIR, log);
  const { startFixtureServer } = await import("../tests/fixtures/conformance-upstream/start-fixture-server");
  const upstream = await startFixtureServer();
  cleanups.push(() => upstream.close());
  if (!skipBare) {
    for (const wire of WIRES) {
      // The fixture is a localhost server: the suite reaches it by name, as a client would.
      const url = upstream.url.replace("127.0.0.1", "localhost");
      log(`bare fixture ${url}, ${wire} wire: every scored scenario must pass`);
      const code = await runSuite(suite, { url, wire, scenario });
      if (code !== 0) {
        log(`the fixture itself fails the ${wire} scenarios: fix tests/fixtures/conformance-upstream first`);
        return code;
      }
    }
  }
  return throughProduct(suite, upstream.url);
}

/** Step 2: the suite against /mcp/<fixture server>, whose mcp connector is the fixture. */
async function throughProduct(suite: Suite, upstreamUrl: string): Promise<number> {
  process.env.MCP_STATEFUL_SESSIONS = stateless ? "false" : "true";
  process.env.SECRET_KEY ??= randomBytes(32).toString("hex");
  process.env.LOG_LEVEL ??= "warn";
  await ensureDatabase(cleanups);
  const { createConformanceFixture } = await import("./conformance/fixture");
  const app = await startMcpEndpoint();
  cleanups.push(() => app.close());
  const { stopLiveWatch } = await import("../lib/mcp/serve/connection-state/live-watch");
  cleanups.push(async () => stopLiveWatch());
  let worst = 0;
  for (const wire of WIRES) {
    // The connector as an admin makes it: the default `auto` era, on both wires.
    const fixture = await createConformanceFixture(upstreamUrl, app.origin);
    app.setKey(fixture.apiKey);
    const url = `${app.origin}/mcp/${fixture.serverId}`;
    const baseline = path.join(ROOT, "conformance", `baseline-${wire}${stateless ? "-stateless" : ""}.yml`);
    log(`suite against ${url} (${stateless ? "stateless" : "stateful sessions"}), ${wire} wire, baseline ${path.relative(ROOT, baseline)}`);
    const code = await runSuite(suite, { url, wire, scenario, expectedFailures: baseline });
    worst ||= code;
  }
  return worst;
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

runMain(main, cleanups, log);
