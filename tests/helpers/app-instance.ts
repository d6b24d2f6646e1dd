import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

/**
 * Several app instances in one test: each is a separate Node process (own module graph, own
 * database pool, own Redis connection) serving the app's route handlers over HTTP, as N
 * identical `next start` processes behind a load balancer would. See app-instance-main.ts.
 */
export interface AppInstance {
  readonly url: string;
  /** fetch() against this instance: `instance.fetch("/api/v1/orgs", { headers })`. */
  fetch(pathname: string, init?: RequestInit): Promise<Response>;
  stop(): Promise<void>;
  /** Everything the instance wrote to stdout and stderr (its JSON log lines among them). */
  output(): string;
}

const MAIN = path.resolve("tests/helpers/app-instance-main.ts");
const STARTUP_TIMEOUT_MS = 30_000;

/** Starts one instance with the test's environment plus `env` (DATABASE_URL, REDIS_URL, …). */
export function startAppInstance(env: Record<string, string | undefined> = {}): Promise<AppInstance> {
  const child = spawn(process.execPath, ["--import", "tsx", MAIN], {
    cwd: path.resolve("."),
    // PORT 0: each instance on a free port of its own (the default 3000 would collide).
    env: { ...process.env, PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const collect = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-200_000));
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`app instance did not start:\n${output}`)), STARTUP_TIMEOUT_MS);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(error);
    };
    child.once("exit", (code) => fail(new Error(`app instance exited (code ${code}):\n${output}`)));
    const onData = () => {
      const port = /listening (\d+)/.exec(output)?.[1];
      if (!port) return;
      clearTimeout(timer);
      child.stdout!.off("data", onData);
      child.removeAllListeners("exit");
      resolve(instance(child, `http://127.0.0.1:${port}`, () => output));
    };
    child.stdout!.on("data", onData);
  });
}

function instance(child: ChildProcess, url: string, output: () => string): AppInstance {
  return {
    url,
    output,
    fetch: (pathname, init) => fetch(new URL(pathname, url), init),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
        child.once("exit", () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill("SIGTERM");
      }),
  };
}
