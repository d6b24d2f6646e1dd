import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/**
 * The app under measurement: a URL given on the command line, or the production app started
 * exactly as `npm start` starts it (build when stale, migrations, `next start`) with its own
 * embedded PostgreSQL in a temporary directory, generous rate limits (the benchmark measures
 * throughput, not the limiter) and warn-level logs.
 */
export interface BenchApp {
  url: string;
  key: string;
  stop(): Promise<void>;
}

/** The started app with a handle on its supervisor (scripts/start.ts), for the shutdown check. */
export interface StartedApp extends BenchApp {
  supervisor: ChildProcess;
  /** The embedded PostgreSQL the app uses, for benchmarks that seed through lib/ directly. */
  databaseUrl: string;
  /** The supervisor's stdout and stderr so far (last 20 kB). */
  output(): string;
}

const STARTUP_TIMEOUT_MS = 10 * 60_000;

/** `env` adds to (or overrides) the environment the app starts with. */
export async function startProductionApp(log: (line: string) => void, env: Record<string, string> = {}): Promise<StartedApp> {
  const [port, pgPort] = [await freePort(), await freePort()];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-bench-"));
  fs.chmodSync(dataDir, 0o755); // as root, PostgreSQL runs as "postgres" and must reach its data
  const key = `bench-${randomBytes(16).toString("hex")}`;
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    cwd: process.cwd(),
    env: {
      ...process.env,
      PORT: String(port),
      SWITCHBOARD_DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(pgPort),
      INSTANCE_API_KEY: key,
      API_RATE_LIMIT: "1000000000",
      MCP_RATE_LIMIT: "1000000000",
      LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);
  log(`starting the production app (npm start) on port ${port}; the first run builds it`);
  const started = Date.now();
  while (!/is running at/.test(output)) {
    if (child.exitCode !== null) throw new Error(`the app exited during startup:\n${output}`);
    if (Date.now() - started > STARTUP_TIMEOUT_MS) throw new Error(`the app did not start:\n${output}`);
    await sleep(250);
  }
  log(`app ready after ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const databaseUrl = `postgresql://postgres:postgres@127.0.0.1:${pgPort}/switchboard`;
  return { url: `http://127.0.0.1:${port}`, key, databaseUrl, stop: () => stop(child, dataDir), supervisor: child, output: () => output };
}

async function stop(child: ChildProcess, dataDir: string): Promise<void> {
  if (child.exitCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM"); // the supervisor stops Next, then PostgreSQL
    await exited;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
