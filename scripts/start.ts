/**
 * npm start / npm run dev: the whole platform from one command.
 *
 * database (DATABASE_URL, or the embedded PostgreSQL) → migrations → `next build` when the
 * sources changed → the app's HTTP server (scripts/serve.ts: Next.js behind a node:http server,
 * or `--dev`) in its own process group, so that SIGINT / SIGTERM can stop all of it and then
 * the database, leaving nothing behind. A supervisor killed with -9 leaves Next and postgres running; the next start
 * stops that Next (recorded in <data dir>/switchboard.pid) and reuses that postgres.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import pg from "pg";
import { dataDir, setting, SETTINGS_NOT_STARTED, settingProblems } from "../lib/config/settings";
import { ensureWritableDir } from "../lib/db/check-postgres-access";
import { startEmbeddedPostgres } from "../lib/db/embedded-postgres";
import { applyMigrations } from "../lib/db/migrate";
import { buildInputsHash, isBuildFresh, writeBuildStamp } from "./lib/build-stamp";

const HELP = `Usage: npm start            build if needed, then serve the production app
       npm run dev          serve with \`next dev\` (no build)

Environment:
  PORT                   HTTP port (default 3000)
  DATABASE_URL           PostgreSQL to use; unset: embedded PostgreSQL, data in
                         <SWITCHBOARD_DATA_DIR or ./.data>/postgres
  EMBEDDED_PG_PORT       port of the embedded PostgreSQL (default 25432)
  REDIS_URL              shared rate limits; unset: limits are per process
  INITIAL_ADMIN_EMAIL,
  INITIAL_ADMIN_PASSWORD seed the instance owner instead of the /setup page
  PUBLIC_URL             the address printed (and given to MCP clients)

Migrations are applied on every start (a no-op when up to date).
`;

const ROOT = process.cwd();
const NEXT_BIN = path.join(ROOT, "node_modules", "next", "dist", "bin", "next");
const SERVE = path.join(ROOT, "scripts", "serve.ts");
const DATA_DIR = dataDir();
const PID_FILE = path.join(DATA_DIR, "switchboard.pid");

const log = (line: string) => console.log(`[switchboard] ${line}`);

/** Things to undo on the way out, newest first. */
const cleanups: (() => Promise<void>)[] = [];
let shuttingDown = false;

/**
 * Runs once. Repeated signals are ignored rather than taken as "exit now": npm, tsx and the
 * terminal each relay the same Ctrl-C, and exiting early would orphan Next and postgres.
 * A Next that ignores SIGTERM is SIGKILLed after 10 s anyway.
 */
async function shutdown(code: number): Promise<void> {
  if (shuttingDown) return;
  shuttingDown = true;
  for (const cleanup of cleanups.reverse()) {
    await cleanup().catch((err: Error) => log(`cleanup failed: ${err.message}`));
  }
  process.exit(code);
}

async function main(args: string[]): Promise<void> {
  if (args.includes("--help") || args.includes("-h")) return void process.stdout.write(HELP);
  const problems = settingProblems();
  if (problems.length > 0) {
    for (const problem of problems) log(problem);
    log(SETTINGS_NOT_STARTED);
    process.exit(2);
  }
  const dev = args.includes("--dev");
  const port = setting("PORT");
  process.on("SIGINT", () => void shutdown(130));
  process.on("SIGTERM", () => void shutdown(143));
  process.on("SIGHUP", () => void shutdown(129));

  await claimPidFile();
  const databaseUrl = await database();
  if (shuttingDown) return;
  await applyMigrations(databaseUrl, log);
  if (!dev) await buildIfStale();
  if (shuttingDown) return;

  const next = startGroup(["--import", "tsx", SERVE, ...(dev ? ["--dev"] : []), "-p", String(port)], { DATABASE_URL: databaseUrl });
  writePidFile(next.pid!);
  cleanups.push(() => stopGroup(next));
  next.on("exit", (code, signal) => {
    if (shuttingDown) return;
    log(`Next.js exited (${signal ?? `code ${code}`}); stopping`);
    void shutdown(code ?? 1);
  });
  if (!(await waitForPort(port, next))) return;
  await announce(port, databaseUrl);
}

/** DATABASE_URL as given, or the embedded server (whose URL the Next child inherits). */
async function database(): Promise<string> {
  const configured = setting("DATABASE_URL");
  if (configured) return configured;
  const port = setting("EMBEDDED_PG_PORT");
  const starting = startEmbeddedPostgres({ dataDir: path.join(DATA_DIR, "postgres"), port, log });
  // Registered before awaiting, so a signal during startup still stops the server.
  cleanups.push(async () => {
    const server = await starting.catch(() => undefined);
    await server?.stop();
    if (server) log("PostgreSQL stopped");
  });
  const { url } = await starting;
  return url;
}

/** Refuses a second supervisor on the same data; stops a Next left behind by a killed one. */
async function claimPidFile(): Promise<void> {
  let recorded: { supervisor?: number; next?: number } = {};
  try {
    recorded = JSON.parse(fs.readFileSync(PID_FILE, "utf8"));
  } catch {
    // no earlier run, or an unreadable file: nothing to recover
  }
  if (recorded.supervisor && recorded.supervisor !== process.pid && commandOf(recorded.supervisor).includes("start.ts")) {
    throw new Error(`Switchboard is already running from ${DATA_DIR} (pid ${recorded.supervisor})`);
  }
  if (recorded.next && /next|serve\.ts/.test(commandOf(recorded.next))) {
    log(`Stopping a Next.js server left over from an earlier run (pid ${recorded.next})`);
    killGroup(recorded.next, "SIGKILL");
    for (let waited = 0; waited < 5_000 && groupAlive(recorded.next); waited += 100) await sleep(100);
  }
  writePidFile();
  cleanups.push(async () => fs.rmSync(PID_FILE, { force: true }));
}

function writePidFile(next?: number): void {
  ensureWritableDir(DATA_DIR, "data directory");
  fs.writeFileSync(PID_FILE, JSON.stringify({ supervisor: process.pid, next }) + "\n");
}

/** The command line of a live process, "" when there is none (or no /proc to ask). */
function commandOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "";
  }
}

/** Rebuilds when .next/BUILD_ID is missing or any build input changed since the last build. */
async function buildIfStale(): Promise<void> {
  const stamp = buildInputsHash(ROOT);
  if (isBuildFresh(ROOT, stamp)) return;
  const built = fs.existsSync(path.join(ROOT, ".next", "BUILD_ID"));
  log(built ? "Sources changed since the last build: running next build" : "No build yet: running next build");
  // No second type check: `npm test` type-checks the project (tsc --noEmit), and on a 2-core
  // machine Next's own pass added two silent minutes to a first start; the browser tests build
  // the same way, so either reuses the other's build.
  const build = startGroup([NEXT_BIN, "build"], { SWITCHBOARD_SKIP_BUILD_TYPECHECK: "1" });
  const stop = () => stopGroup(build);
  cleanups.push(stop);
  const code = await new Promise<number | null>((resolve) => build.on("exit", (c) => resolve(c)));
  cleanups.splice(cleanups.indexOf(stop), 1);
  if (shuttingDown) return;
  if (code !== 0) {
    log(`next build failed (exit code ${code})`);
    return shutdown(1);
  }
  // The hash taken before building: an edit made during the build triggers the next one.
  writeBuildStamp(ROOT, stamp);
}

function readOrEmpty(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

/** Runs node <args> as the leader of a new process group, sharing our terminal. */
function startGroup(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, args, { cwd: ROOT, detached: true, stdio: "inherit", env: { ...process.env, ...env } });
}

function killGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // ESRCH: nobody left in the group
  }
}

/**
 * Whether any live process is left in group `pgid`. Zombies do not count: where PID 1 does not
 * reap orphans (some containers), a dead next-server stays a zombie and kill(-pgid, 0) succeeds.
 */
function groupAlive(pgid: number): boolean {
  if (!fs.existsSync("/proc/self/stat")) return killGroup(pgid, 0);
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readOrEmpty(`/proc/${entry}/stat`); // "pid (comm) state ppid pgrp ..."
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (state && state !== "Z" && Number(pgrp) === pgid) return true;
  }
  return false;
}

/** SIGTERM to the whole group, SIGKILL to whatever is still there after 10 s. */
async function stopGroup(child: ChildProcess): Promise<void> {
  const pid = child.pid;
  if (!pid) return;
  killGroup(pid, "SIGTERM");
  for (let waited = 0; waited < 10_000; waited += 100) {
    if (!groupAlive(pid)) return;
    await sleep(100);
  }
  log("Next.js did not stop within 10 s: killing it");
  killGroup(pid, "SIGKILL");
}

async function waitForPort(port: number, child: ChildProcess): Promise<boolean> {
  for (let waited = 0; waited < 120_000; waited += 250) {
    if (shuttingDown || child.exitCode !== null) return false;
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1");
      const done = (answer: boolean) => {
        socket.destroy();
        resolve(answer);
      };
      socket.once("connect", () => done(true));
      socket.once("error", () => done(false));
      socket.setTimeout(1_000, () => done(false));
    });
    if (open) return true;
    await sleep(250);
  }
  log(`Next.js is not answering on port ${port} after 2 minutes`);
  return false;
}

async function announce(port: number, databaseUrl: string): Promise<void> {
  const url = (setting("PUBLIC_URL") || `http://localhost:${port}`).replace(/\/+$/, "");
  log(`Switchboard is running at ${url}`);
  const hasUser = await anyUser(databaseUrl).catch(() => true);
  if (hasUser) log(`Sign in at ${url}/signin`);
  else if (setting("INITIAL_ADMIN_EMAIL") && setting("INITIAL_ADMIN_PASSWORD")) {
    log(`No user yet: the instance owner ${setting("INITIAL_ADMIN_EMAIL")} is created from INITIAL_ADMIN_EMAIL on the first visit to ${url}/signin`);
  } else log(`No user yet: open ${url}/setup to create the instance owner (or set INITIAL_ADMIN_EMAIL and INITIAL_ADMIN_PASSWORD)`);
  if (!setting("REDIS_URL")) log("REDIS_URL not set: rate limits are per process");
  log("Press Ctrl-C to stop");
}

async function anyUser(databaseUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 3_000 });
  await client.connect();
  try {
    const { rows } = await client.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM "users") AS any');
    return rows[0].any;
  } finally {
    await client.end();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// Whatever fails — here or in a library's child process without an error listener — is told
// in one line and everything started so far is stopped: an operator reads a sentence, not a stack.
const fail = (err: Error) => {
  log(`start failed: ${err.message}`);
  void shutdown(1);
};
process.on("uncaughtException", fail);
main(process.argv.slice(2)).catch(fail);
