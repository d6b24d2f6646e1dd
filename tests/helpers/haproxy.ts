import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "@/lib/net/free-port";

/**
 * Debian's haproxy (`apt-get install haproxy`, see .ci/run) run as a process with the very
 * deploy/haproxy.cfg that docker-compose.yml mounts into its load balancer, only the addresses
 * substituted: the frontend binds a free loopback port instead of :8080, and the servers Docker's
 * DNS would find (`server-template app … app:3000 … resolvers docker`) are the given instances.
 */
export interface RunningHaproxy {
  url: string;
  output(): string;
  stop(): Promise<void>;
}

const CONFIG = path.resolve("deploy/haproxy.cfg");

/** deploy/haproxy.cfg with `backends` (host:port each) in place of the compose service's replicas. */
export function substitutedConfig(port: number, backends: string[]): string {
  const text = fs.readFileSync(CONFIG, "utf8");
  const template = /^(\s*)server-template app \d+ app:3000 (check) resolvers docker init-addr none$/m;
  const bind = /^(\s*)bind :8080$/m;
  const resolvers = /^resolvers docker\n(?:[ \t]+.*\n)+/m;
  for (const [name, pattern] of Object.entries({ template, bind, resolvers })) {
    if (!pattern.test(text)) throw new Error(`deploy/haproxy.cfg changed: its ${name} line is not where this test substitutes it`);
  }
  return text
    .replace(resolvers, "")
    .replace(bind, `$1bind 127.0.0.1:${port}`)
    .replace(template, (_, indent: string, check: string) => backends.map((address, i) => `${indent}server app${i + 1} ${address} ${check}`).join("\n"));
}

export async function startHaproxy(backends: string[]): Promise<RunningHaproxy> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-haproxy-"));
  const file = path.join(dir, "haproxy.cfg");
  fs.writeFileSync(file, substitutedConfig(port, backends));
  // -db: foreground, no daemon; its log lines (`log stdout`) come out here.
  const child: ChildProcess = spawn("haproxy", ["-db", "-f", file], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const collect = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-100_000));
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  for (let waited = 0; ; waited += 100) {
    if (child.exitCode !== null || waited > 15_000) {
      await stop();
      throw new Error(`haproxy did not serve ${url}:\n${output}`);
    }
    const answered = await fetch(`${url}/api/health`).then((r) => r.ok, () => false);
    if (answered) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, output: () => output, stop };
}
