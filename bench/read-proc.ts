import { execFileSync } from "node:child_process";
import fs from "node:fs";

/** What the benchmarks read of /proc (Linux only): process listings, states and CPU time. */

/** Fields of /proc/<pid>/stat after the command name: [state, ppid, pgrp, …]. */
export function statFields(pid: number): string[] | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

export function allPids(): number[] {
  return fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d)).map(Number);
}

/** `root` and every process below it (by parent pid), at the moment of the call. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const pid of allPids()) {
    const ppid = Number(statFields(pid)?.[1]);
    if (ppid) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const tree: number[] = [];
  for (let queue = [root]; queue.length > 0; ) {
    const pid = queue.shift()!;
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

const CLOCK_TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * CPU time in ms used so far by the processes of `pids`: utime + stime, plus cutime + cstime
 * (children that already exited and were waited for, e.g. a PostgreSQL backend that ended);
 * `postgres` is the part of PostgreSQL's processes.
 */
export function cpuMs(pids: number[]): { total: number; postgres: number } {
  let [ticks, postgres] = [0, 0];
  for (const pid of pids) {
    const f = statFields(pid);
    if (!f) continue;
    // After the command name: state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14).
    const used = Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    ticks += used;
    if (commandName(pid) === "postgres") postgres += used;
  }
  const ms = (n: number) => (n * 1000) / CLOCK_TICKS_PER_SECOND;
  return { total: ms(ticks), postgres: ms(postgres) };
}

function commandName(pid: number): string | null {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  } catch {
    return null;
  }
}

/** "next-server ×1, postgres ×9": what a process tree is made of, by command name. */
export function describeTree(root: number): string {
  const counts = new Map<string, number>();
  for (const pid of processTree(root)) {
    const name = commandName(pid);
    if (name) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].map(([name, n]) => `${name} ×${n}`).join(", ");
}

/**
 * The Next.js server started by the supervisor: its child that leads its own process group,
 * scripts/serve.ts (Next's handler behind node:http). `next start` renamed its process
 * ("next-server (v…)"), so either name is accepted (the embedded PostgreSQL is the
 * supervisor's other child).
 */
export function nextServerGroup(supervisorPid: number): number {
  const children: string[] = [];
  for (const pid of allPids()) {
    const f = statFields(pid);
    if (!f || Number(f[1]) !== supervisorPid) continue;
    const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
    children.push(`${pid} (pgrp ${f[2]}): ${cmd}`);
    if (Number(f[2]) === pid && /next|serve\.ts/.test(cmd) && !/postgres/.test(cmd)) return pid;
  }
  throw new Error(`no Next.js process group under the supervisor (pid ${supervisorPid}); its children:\n${children.join("\n")}`);
}

/** Sum of VmRSS over the processes of process group `pgid`, in bytes. */
export function groupRss(pgid: number): number {
  let total = 0;
  for (const pid of allPids()) {
    const f = statFields(pid);
    if (!f || Number(f[2]) !== pgid) continue;
    try {
      const match = fs.readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB/m);
      if (match) total += Number(match[1]) * 1024;
    } catch {
      // the process exited between the listing and the read
    }
  }
  return total;
}
