import fs from "node:fs";
import path from "node:path";

/**
 * The top self-time functions of a V8 .cpuprofile (as written by bench/mcp/profile-process.mjs),
 * grouped by function, file and line: where the app's CPU goes. Of several profiles in a
 * directory the busiest is taken (the Next.js server; the supervisor and the `next` CLI idle).
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface Hotspot {
  name: string;
  where: string;
  selfMs: number;
  share: number;
}

/** Self time per node id in ms, from the sample stream (timeDeltas are µs before each sample). */
function selfTimes(profile: CpuProfile): Map<number, number> {
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000));
  return self;
}

function shortUrl(url: string): string {
  if (!url) return "(native)";
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) return url.slice(nm + "node_modules/".length);
  const next = url.indexOf(".next/");
  return next >= 0 ? url.slice(next) : url.replace(/^file:\/\//, "");
}

/** Which part of the process a frame belongs to: a package, the app's bundle, Node itself, V8. */
function bucketOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith("(") ? functionName : "(native: builtins, C++)";
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const [scope, name] = url.slice(nm + "node_modules/".length).split("/");
    return scope.startsWith("@") ? `${scope}/${name}` : scope;
  }
  if (url.includes(".next/server/chunks/")) return "the app's server bundle (.next/server/chunks: lib/, Next.js, bundled packages)";
  if (url.includes(".next/")) return "other .next output";
  if (url.startsWith("wasm://")) return "WebAssembly (in this app: Prisma's query compiler)";
  return url.startsWith("node:") ? "Node.js internals (node:…)" : "other";
}

export function hotspots(profile: CpuProfile, top: number): { busyMs: number; rows: Hotspot[]; buckets: Hotspot[] } {
  const self = selfTimes(profile);
  const byKey = new Map<string, Hotspot>();
  const byBucket = new Map<string, Hotspot>();
  let busyMs = 0;
  for (const node of profile.nodes) {
    const ms = self.get(node.id) ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    if (ms === 0 || functionName === "(idle)") continue;
    busyMs += ms;
    const name = functionName || "(anonymous)";
    const where = url ? `${shortUrl(url)}:${lineNumber + 1}` : "";
    const key = `${name}\0${where}`;
    const row = byKey.get(key) ?? { name, where, selfMs: 0, share: 0 };
    row.selfMs += ms;
    byKey.set(key, row);
    const bucket = bucketOf(url, name);
    const b = byBucket.get(bucket) ?? { name: bucket, where: "", selfMs: 0, share: 0 };
    b.selfMs += ms;
    byBucket.set(bucket, b);
  }
  const ranked = (m: Map<string, Hotspot>, n: number) => {
    const list = [...m.values()].sort((a, b) => b.selfMs - a.selfMs).slice(0, n);
    for (const row of list) row.share = busyMs ? row.selfMs / busyMs : 0;
    return list;
  };
  return { busyMs, rows: ranked(byKey, top), buckets: ranked(byBucket, 12) };
}

/** The busiest profile of `dir` and its hot spots as a Markdown table. */
export function summarizeProfiles(dir: string, top = 25): string {
  const files = fs.readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"));
  if (files.length === 0) return `No .cpuprofile was written to ${dir}.`;
  const profiled = files.map((f) => ({ file: path.join(dir, f), ...hotspots(JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as CpuProfile, top) }));
  const busiest = profiled.sort((a, b) => b.busyMs - a.busyMs)[0];
  const lines = [
    `Profile ${busiest.file}: ${(busiest.busyMs / 1000).toFixed(1)} s of CPU (not idle) over the app's whole life, start-up included.`,
    "",
    "| self ms | share | part of the process |",
    "|---|---|---|",
    ...busiest.buckets.map((r) => `| ${r.selfMs.toFixed(0)} | ${(r.share * 100).toFixed(1)} % | ${r.name} |`),
    "",
    "| self ms | share | function | where |",
    "|---|---|---|---|",
    ...busiest.rows.map((r) => `| ${r.selfMs.toFixed(0)} | ${(r.share * 100).toFixed(1)} % | ${r.name} | ${r.where} |`),
  ];
  return lines.join("\n");
}
