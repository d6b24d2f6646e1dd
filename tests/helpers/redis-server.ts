import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { freePort } from "@/lib/net/free-port";

export { freePort };

/**
 * A real Redis for tests: Debian's `redis-server` on 127.0.0.1 and a free port, no persistence.
 * The test owns it and can stop, restart (same port, so clients reconnect by themselves),
 * stall (SIGSTOP: the connection stays open but nothing answers) and resume it.
 *
 * No npm package ships a Redis binary, so a machine without the Debian package fails loudly
 * here instead of the tests silently skipping.
 */
export interface TestRedis {
  readonly port: number;
  readonly url: string;
  /** Stops the server (SIGTERM) and waits until it has exited. */
  stop(): Promise<void>;
  /** Starts it again on the same port (empty: nothing was saved). */
  restart(): Promise<void>;
  /** Freezes the process: connections stay open, commands get no answer. */
  stall(): void;
  resume(): void;
  /** Stops the server for good and removes its directory (afterAll). */
  dispose(): Promise<void>;
  /** Runs redis-cli against this server, e.g. `cli("PTTL", "key")`. */
  cli(...args: string[]): string;
}

const STARTUP_TIMEOUT_MS = 10_000;

export const REDIS_MISSING =
  "redis-server is not installed: install the Debian package redis-server (apt-get install -y redis-server); " +
  "the Redis tests need a real server and are not skipped without one";

export async function startTestRedis(): Promise<TestRedis> {
  const binary = findBinary("redis-server");
  if (!binary) throw new Error(REDIS_MISSING);
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-test-redis-"));
  let child: ChildProcess | undefined = await launch(binary, port, dir);
  const killOnExit = () => child?.kill("SIGKILL");
  process.once("exit", killOnExit);

  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running) return;
    running.kill("SIGCONT"); // a stalled server cannot act on SIGTERM
    await terminate(running);
  };

  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop,
    async restart() {
      if (child) throw new Error("redis-server is still running");
      child = await launch(binary, port, dir);
    },
    stall() {
      child?.kill("SIGSTOP");
    },
    resume() {
      child?.kill("SIGCONT");
    },
    async dispose() {
      await stop();
      process.removeListener("exit", killOnExit);
      fs.rmSync(dir, { recursive: true, force: true });
    },
    cli(...args: string[]) {
      const cliBinary = findBinary("redis-cli");
      if (!cliBinary) throw new Error(REDIS_MISSING);
      return execFileSync(cliBinary, ["-h", "127.0.0.1", "-p", String(port), ...args], { encoding: "utf8" }).trim();
    },
  };
}

function findBinary(name: string): string | null {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter).concat(["/usr/bin", "/usr/sbin"])) {
    const candidate = path.join(dir, name);
    if (dir && fs.existsSync(candidate)) return candidate;
  }
  return null;
}

async function launch(binary: string, port: number, dir: string): Promise<ChildProcess> {
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir];
  const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4_000)));
  child.stderr?.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4_000)));
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    if (await answersPing(port)) return child;
    await sleep(50);
  }
  child.kill("SIGKILL");
  throw new Error(`redis-server did not start on port ${port}:\n${output}`);
}

function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(500, () => done(false));
    socket.once("error", () => done(false));
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (data) => done(data.toString().startsWith("+PONG")));
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
