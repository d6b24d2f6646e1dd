/**
 * npm run conformance:client-auth: the official MCP conformance suite's client authorization
 * scenarios with Switchboard as the OAuth client of its upstreams (issue 24 point 7). For
 * every scored `auth/` client scenario of the 2025-11-25 and 2026-07-28 requirement sets of the
 * pinned suite (each at its revision's wire; the extensions are not scored and not run), the
 * suite starts the scenario's MCP server and authorization server and runs our client command
 * (scripts/conformance/client-auth-client.ts) with the server's URL. That command, against one
 * production app started here as `npm start` runs it, creates an `mcp` connector with OAuth
 * for the URL, connects (the suite's authorization servers approve at once; the person's
 * session cookie carries the callback) and calls the scenario's tool through /mcp/<server>.
 *
 * A scenario passes when every check the suite makes passes (or is listed, as
 * `<scenario>:<check>`, in conformance/baseline-client-auth.yml: what a real deployment cannot
 * pass by its nature) and the client did what the scenario allows: the tool answered, or the
 * suite accepts a refusal there. Scenarios run in parallel, a few at a time.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { ensureBuild, type RunningApp, startApp } from "@/tests/e2e/support/next-app";
import { ensureDatabase } from "./conformance/database";
import { authScenarios, makePerson, type Person } from "./conformance/client-auth-setup";
import { ensureSuite, type Suite, SUITE_VERSION, type Wire, WIRES } from "./conformance/run-suite";
import { runMain } from "./conformance/run-main";

const ROOT = process.cwd();
const BASELINE = path.join(ROOT, "conformance", "baseline-client-auth.yml");
const CLIENT = path.join(ROOT, "scripts", "conformance", "client-auth-client.ts");

const args = process.argv.slice(2);
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
/** Per scenario: the client's whole run (create, connect, call); about 5 s on an idle 2-core machine. */
const SCENARIO_TIMEOUT_MS = Number(option("--timeout") ?? 60_000);
if (args.includes("--help") || args.includes("-h")) {
  console.log(`Usage: npm run conformance:client-auth [-- --scenario auth/NAME] [-- --wire 2025-11-25|2026-07-28] [-- --parallel N]

Runs the MCP conformance suite's (${SUITE_VERSION}) client authorization scenarios — every
scored auth/ client scenario of its 2025-11-25 and 2026-07-28 requirement sets, each at its
revision's wire — with Switchboard as the OAuth client: builds the app if needed (as npm start
does), starts it, makes a person (an owner, signed in once in Chromium), and for each scenario
lets the suite run scripts/conformance/client-auth-client.ts, which creates an mcp connector
with OAuth (shared and per_user in turn) for the scenario's server, connects, and calls its
tool through /mcp/<server>. Every scenario must pass, but for the checks listed in
conformance/baseline-client-auth.yml.

  --scenario auth/NAME   one scenario only (on each wire whose set lists it)
  --wire REVISION        one requirement set only
  --parallel N           scenarios at once (default 4)
  --timeout MS           the suite's limit for one scenario's client (default 60000)

Needs Debian's chromium (CHROMIUM_PATH to use another) and Node >= 22 for the suite (installed
on first use into .conformance/). DATABASE_URL: use that database instead of a throwaway
embedded PostgreSQL.`);
  process.exit(0);
}

const log = (line: string) => console.log(`[conformance:client-auth] ${line}`);
const cleanups: Array<() => Promise<void>> = [];
const INSTANCE_KEY = `conformance-${randomBytes(16).toString("hex")}`;

interface Run {
  wire: Wire;
  scenario: string;
  connection: "shared" | "per_user";
}

interface Verdict extends Run {
  pass: boolean;
  seconds: number;
  failing: string[];
  excused: string[];
  stale: string[];
  client: { ok: boolean; steps: string[] } | null;
}

type Check = { id: string; status: string };

/** `<scenario>:<check>` entries of the baseline's `client` list. */
function baselineEntries(): Set<string> {
  const parsed = parse(fs.readFileSync(BASELINE, "utf8")) as { client?: string[] } | null;
  return new Set(parsed?.client ?? []);
}

async function runScenario(suite: Suite, person: Person, base: string, run: Run, outDir: string, baseline: Set<string>): Promise<Verdict> {
  const started = Date.now();
  const dir = fs.mkdtempSync(path.join(outDir, `${run.wire}-${run.scenario.replace("/", "-")}-`));
  const resultFile = path.join(dir, "client.json");
  const command = `${process.execPath} --import tsx ${CLIENT}`;
  const env = {
    ...process.env,
    SWITCHBOARD_BASE: base,
    SWITCHBOARD_KEY: person.key,
    SWITCHBOARD_COOKIE: person.cookie,
    SWITCHBOARD_ORG: person.orgId,
    SWITCHBOARD_WORKSPACE: person.workspaceId,
    SWITCHBOARD_CONNECTION: run.connection,
    SWITCHBOARD_RESULT_FILE: resultFile,
  };
  const suiteArgs = [suite.cli, "client", "--command", command, "--scenario", run.scenario, "--spec-version", run.wire, "--timeout", String(SCENARIO_TIMEOUT_MS), "-o", dir];
  let output = "";
  const code = await new Promise<number>((resolve) => {
    const child = spawn(suite.node, suiteArgs, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("exit", (c) => resolve(c ?? 1));
  });
  const checksFile = fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).find((f) => f.endsWith("checks.json"));
  const checks: Check[] = checksFile ? JSON.parse(fs.readFileSync(path.join(dir, checksFile), "utf8")) : [];
  const client = fs.existsSync(resultFile) ? (JSON.parse(fs.readFileSync(resultFile, "utf8")) as { ok: boolean; steps: string[] }) : null;
  const bad = (c: Check) => c.status === "FAILURE" || c.status === "WARNING";
  const failingIds = [...new Set(checks.filter(bad).map((c) => c.id))];
  const failing = failingIds.filter((id) => !baseline.has(`${run.scenario}:${id}`));
  const excused = failingIds.filter((id) => baseline.has(`${run.scenario}:${id}`));
  // A listed check that passes now is stale: the list must stay true.
  const stale = [...baseline].filter((entry) => entry.startsWith(`${run.scenario}:`) && !excused.includes(entry.slice(run.scenario.length + 1)) && checks.some((c) => `${run.scenario}:${c.id}` === entry && c.status === "SUCCESS"));
  // The suite's own exit judges the client's exit (0 unless the scenario accepts a refusal);
  // with excused checks it exits 1 anyway, so then the tool must have answered.
  const clientFine = code === 0 || (failing.length === 0 && excused.length > 0 && client?.ok === true);
  const pass = checks.length > 0 && failing.length === 0 && stale.length === 0 && clientFine;
  if (!pass) fs.writeFileSync(path.join(dir, "suite-output.txt"), output);
  return { ...run, pass, seconds: (Date.now() - started) / 1000, failing, excused, stale, client };
}

/** Runs `work` over `items`, at most `limit` at once. */
async function pool<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]);
    }
  });
  await Promise.all(lanes);
  return results;
}

function report(verdict: Verdict): void {
  const mark = verdict.pass ? "✓" : "✗";
  const notes = [
    verdict.excused.length ? `baseline: ${verdict.excused.join(", ")}` : "",
    verdict.failing.length ? `failing: ${verdict.failing.join(", ")}` : "",
    verdict.stale.length ? `stale baseline: ${verdict.stale.join(", ")}` : "",
    verdict.client ? (verdict.client.ok ? "tool answered" : `client: ${verdict.client.steps.at(-1) ?? "no step"}`) : "client: no result",
  ].filter(Boolean);
  log(`${mark} ${verdict.wire} ${verdict.scenario} (${verdict.connection}, ${verdict.seconds.toFixed(1)} s) ${notes.join("; ")}`);
  if (!verdict.pass && verdict.client) for (const line of verdict.client.steps) log(`    ${line}`);
}

async function main(): Promise<number> {
  const began = Date.now();
  const suite = ensureSuite(path.join(ROOT, ".conformance"), log);
  const wires = WIRES.filter((w) => !option("--wire") || w === option("--wire"));
  const runs: Run[] = wires.flatMap((wire) =>
    authScenarios(suite, wire)
      .filter((name) => !option("--scenario") || name === option("--scenario"))
      // Both kinds of connection, in turn, on both wires.
      .map((scenario, i) => ({ wire, scenario, connection: i % 2 === 0 ? ("per_user" as const) : ("shared" as const) })),
  );
  if (runs.length === 0) throw new Error("no scenario matches");
  const databaseUrl = await ensureDatabase(cleanups);
  log("building the app if its sources changed (as npm start does)");
  await ensureBuild();
  const app: RunningApp = await startApp({ databaseUrl, env: { INSTANCE_API_KEY: INSTANCE_KEY, LOG_LEVEL: "warn" } });
  cleanups.push(() => app.stop());
  const person = await makePerson(app.baseUrl, INSTANCE_KEY);
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-client-auth-"));
  log(`${runs.length} scenario runs against ${app.baseUrl}; results in ${outDir}`);
  const baseline = baselineEntries();
  const ranAt = Date.now();
  const verdicts = await pool(runs, Number(option("--parallel") ?? 4), async (run) => {
    const verdict = await runScenario(suite, person, app.baseUrl, run, outDir, baseline);
    report(verdict);
    return verdict;
  });
  const failed = verdicts.filter((v) => !v.pass);
  log(`${verdicts.length - failed.length}/${verdicts.length} passed; scenarios ${((Date.now() - ranAt) / 1000).toFixed(0)} s, whole run ${((Date.now() - began) / 1000).toFixed(0)} s`);
  if (failed.length > 0) {
    log(`failed: ${failed.map((v) => `${v.wire} ${v.scenario}`).join(", ")} (the suite's output of each is in ${outDir})`);
    return 1;
  }
  fs.rmSync(outDir, { recursive: true, force: true });
  return 0;
}

runMain(main, cleanups, log);
