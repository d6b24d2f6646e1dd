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

/**
 * fetch() against `instance` that sends the request again while it answers 503. That is the
 * product's promise when it cannot get a database connection within DB_CONNECT_TIMEOUT_MS (1 s
 * by default): "retry shortly", with Retry-After, as the README tells clients. A loaded machine
 * reaches it, above all while a fresh instance still compiles the modules of its first requests.
 * Waits at most a second between tries (not the 5 s Retry-After asks of real clients): the test
 * knows the instance is not overloaded by its own retries. `init.body` must be re-sendable.
 */
export async function fetchRetrying503(instance: AppInstance, pathname: string, init?: RequestInit, attempts = 15): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const response = await instance.fetch(pathname, init);
    if (response.status !== 503 || attempt >= attempts) return response;
    await response.arrayBuffer();
    const retryAfterMs = Number(response.headers.get("retry-after") ?? "1") * 1000;
    await new Promise((resolve) => setTimeout(resolve, Math.min(retryAfterMs, 1_000)));
  }
}

/**
 * Loads the modules behind `pathname` on each instance before a test's clock runs: the first
 * request to an instance compiles its route's whole module graph (tsx, no build), which takes
 * 30–50 s on a loaded 2-core machine. Any answer but a 503 means the route is loaded.
 */
export async function warmUp(instances: AppInstance[], pathname: string, init?: RequestInit): Promise<void> {
  await Promise.all(instances.map(async (instance) => void (await (await fetchRetrying503(instance, pathname, init, 60)).arrayBuffer())));
}
