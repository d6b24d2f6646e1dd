import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

/**
 * examples/summarize-server as a real child process on 127.0.0.1 (a free port it picks itself),
 * run exactly as its README says (tsx). Its own process group, so stop() ends it whatever it
 * spawned.
 */

export interface ExampleUpstream {
  /** e.g. http://127.0.0.1:41234/mcp */
  url: string;
  pid: number;
  /** What the process printed so far. */
  output(): string;
  stop(): Promise<void>;
}

const SERVER = path.join(process.cwd(), "examples", "summarize-server", "server.ts");

export async function startExampleUpstream(args: string[] = []): Promise<ExampleUpstream> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", SERVER, "--port", "0", ...args], {
    cwd: process.cwd(),
    detached: true,
    env: { ...process.env, NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      return; // already gone
    }
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // exited on SIGTERM
    }
  };
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the example server did not start:\n${output}`)), 30_000);
    const check = () => {
      const match = output.match(/listening on (http:\/\/\S+\/mcp)/);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout!.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the example server exited with ${code}:\n${output}`));
    });
  }).catch(async (e: unknown) => {
    await stop();
    throw e;
  });
  return { url, pid: child.pid!, output: () => output, stop };
}
