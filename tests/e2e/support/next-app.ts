import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "@/lib/net/free-port";
import { buildInputsHash, isBuildFresh, writeBuildStamp } from "@/scripts/lib/build-stamp";

/**
 * The real production app for browser tests: `next build` once (skipped while the build inputs
 * are unchanged: same stamp as `npm start` writes, so either reuses the other's build), then
 * the server `npm start` runs (scripts/serve.ts: Next.js behind node:http) on a free port in
 * its own process group, pointed at the test database.
 */

const ROOT = process.cwd();
const NEXT_BIN = path.join(ROOT, "node_modules", "next", "dist", "bin", "next");
const SERVE = path.join(ROOT, "scripts", "serve.ts");
/** Two test runs in this checkout must not build into the same .next at once. */
const LOCK_DIR = path.join(os.tmpdir(), `switchboard-e2e-build-${createHash("sha256").update(ROOT).digest("hex").slice(0, 12)}.lock`);


async function withBuildLock<T>(work: () => Promise<T>): Promise<T> {
  for (let waited = 0; ; waited += 500) {
    try {
      fs.mkdirSync(LOCK_DIR);
      break;
    } catch {
      // A lock older than 15 minutes belongs to a run that died.
      const age = Date.now() - (fs.statSync(LOCK_DIR, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 15 * 60_000) fs.rmSync(LOCK_DIR, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    return await work();
  } finally {
    fs.rmSync(LOCK_DIR, { recursive: true, force: true });
  }
}

/** Builds the app unless .next already holds a build of exactly these sources. */
export async function ensureBuild(): Promise<void> {
  if (isBuildFresh(ROOT, buildInputsHash(ROOT))) return;
  await withBuildLock(async () => {
    // Someone else's `next build` in this checkout (npm start, another helper) holds Next's own
    // lock: wait for it, then build only if its result is not a build of these sources.
    for (let attempt = 0; attempt < 120; attempt++) {
      const stamp = buildInputsHash(ROOT);
      if (isBuildFresh(ROOT, stamp)) return;
      const { code, output } = await runBuild();
      if (code === 0) return void writeBuildStamp(ROOT, stamp);
      if (!output.includes("Another next build process is already running")) {
        throw new Error(`next build failed (exit ${code}):\n${output.slice(-4000)}`);
      }
      await new Promise((r) => setTimeout(r, 5000));
    }
    throw new Error("next build: another build kept running for 10 minutes");
  });
}

async function runBuild(): Promise<{ code: number | null; output: string }> {
  const output: string[] = [];
  const child = spawn(process.execPath, [NEXT_BIN, "build"], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", SWITCHBOARD_SKIP_BUILD_TYPECHECK: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.on("data", (d: Buffer) => output.push(d.toString()));
  child.stderr.on("data", (d: Buffer) => output.push(d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  return { code, output: output.join("") };
}

export interface RunningApp {
  baseUrl: string;
  /** What the server printed, for failure messages. */
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * This process's environment without what the test runner adds to it. Vitest sets TEST=true
 * (and VITEST), which libraries read as "this is a test": better-auth then skips its CSRF origin
 * check, so an app started with them behaves unlike any user's install — the OAuth consent step
 * passed here and failed for every user (issue 21).
 */
function userEnvironment(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (name === "TEST" || name.startsWith("VITEST")) delete env[name];
  return env;
}

/** Starts the production server against `databaseUrl` and waits until /signin answers. */
export async function startApp(opts: { databaseUrl: string; env?: Record<string, string>; port?: number }): Promise<RunningApp> {
  // A caller that must know the address first (PUBLIC_URL) picks the port itself.
  const port = opts.port ?? (await freePort());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-e2e-data-"));
  const output: string[] = [];
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", SERVE, "-p", String(port), "-H", "127.0.0.1"], {
    cwd: ROOT,
    detached: true, // its own process group: stop() ends it and anything it started
    env: {
      ...userEnvironment(),
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      // The test database and a data directory of this app's own (a default install: embedded PostgreSQL in ./.data).
      DATABASE_URL: opts.databaseUrl,
      SWITCHBOARD_DATA_DIR: dataDir,
      // The key the tests call the admin API with (a default install has none); warnings only, not every request.
      INSTANCE_API_KEY: process.env.INSTANCE_API_KEY ?? "test-instance-key",
      LOG_LEVEL: "warn",
      // Neither Redis nor a public URL, as in a default install, whatever the shell running the tests has set.
      REDIS_URL: "",
      PUBLIC_URL: "",
      // The blob deletion queue is shared by the whole test database: a worker in this app (with
      // its own blob store) must not take rows from the tests that exercise the queue.
      BLOB_WORKER_INTERVAL_SEC: "86400",
      ...opts.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d: Buffer) => output.push(d.toString()));
  child.stderr?.on("data", (d: Buffer) => output.push(d.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.pid) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // already gone
      }
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHttp(`${baseUrl}/signin`, child, 60_000);
  } catch (e) {
    await stop();
    throw new Error(`${(e as Error).message}\n${output.join("").slice(-3000)}`);
  }
  return { baseUrl, output: () => output.join(""), stop };
}

async function waitForHttp(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      const res = await fetch(url, { redirect: "manual" });
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server did not answer ${url} within ${timeoutMs} ms`);
}
