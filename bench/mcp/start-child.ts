import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

/** A helper process of the MCP benchmark (bare server, upstream API) and the port it listens on. */
export interface Child {
  pid: number;
  port: number;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 60_000;

/** Runs bench/mcp/<file> (from the repository root, like bench/app.ts) under tsx and waits for its "listening <port>" line. */
export async function startChild(file: string, args: string[] = []): Promise<Child> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(process.cwd(), "bench", "mcp", file), ...args], {
    cwd: process.cwd(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${file} did not start:\n${output}`)), READY_TIMEOUT_MS);
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/listening (\d+)/);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout!.on("data", collect);
    child.stderr!.on("data", collect);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${file} exited (code ${code}):\n${output}`));
    });
  });
  return { pid: child.pid!, port, stop: () => stop(child) };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}
