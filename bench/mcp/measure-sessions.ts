import { startProductionApp, type StartedApp } from "../app";
import { groupRss, nextServerGroup } from "../read-proc";
import { type HttpCall, initializeParams, mcpCall, sendPatiently } from "./mcp-wire";

/**
 * The memory phase of `npm run bench:mcp`, for issue 11's target "1,000 live stateful sessions
 * on one instance: ≤ 200 MB more resident memory than none". Stateful sessions change how
 * 2025-era POSTs without a session id are served (each opens a session; a tools/list is
 * refused), so the rps kinds keep their stateless instance and this phase starts a second
 * one on the same database with MCP_STATEFUL_SESSIONS=true and a cap above 1,000 sessions.
 */

export const SESSION_MEMORY = "stateful sessions memory";
export const SESSIONS = 1000;
export const TARGET_MB = 200;
/** "wait 2 s" between the last session opened and the reading; nothing is forced (no GC). */
const SETTLE_MS = 2000;
/** Sessions opened and closed before the first reading, so loading code and JIT are not counted. */
const WARMUP_SESSIONS = 10;
/** Sessions opened at a time: the app is being filled, not measured. */
const PARALLEL = 4;
const MB = 1024 * 1024;

export interface SessionMemory {
  sessions: number;
  warmupSessions: number;
  settleMs: number;
  rssBeforeBytes: number;
  rssAfterBytes: number;
  /** (after − before) in MB of 2^20 bytes. */
  growthMb: number;
  targetMb: number;
  /** Sessions still live when the second reading was taken (their DELETE was answered 2xx). */
  liveAtReading: number;
}

interface Target {
  url: string;
  key: string;
  tools: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function inSession(call: HttpCall, sessionId: string): HttpCall {
  return { ...call, headers: { ...call.headers, "mcp-session-id": sessionId } };
}

/** initialize, notifications/initialized, then one tools/list in the session; its id. */
async function openSession(t: Target): Promise<string> {
  const init = await sendPatiently(mcpCall(t.url, "2025-11-25", "initialize", initializeParams("2025-11-25"), t.key));
  const id = init.headers.get("mcp-session-id");
  if (init.status !== 200 || !init.message?.result || !id) throw new Error(`initialize: HTTP ${init.status}, session id ${id ?? "none"}: ${init.text.slice(0, 300)}`);
  const notify = mcpCall(t.url, "2025-11-25", "notifications/initialized", {}, t.key);
  const initialized = await sendPatiently(inSession({ ...notify, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) }, id));
  if (initialized.status !== 202) throw new Error(`notifications/initialized: HTTP ${initialized.status} ${initialized.text.slice(0, 300)}`);
  const list = await sendPatiently(inSession(mcpCall(t.url, "2025-11-25", "tools/list", {}, t.key), id));
  const count = list.message?.result?.tools?.length;
  if (list.status !== 200 || count !== t.tools) throw new Error(`tools/list in a session: HTTP ${list.status}, ${count} tools, not ${t.tools}: ${list.text.slice(0, 300)}`);
  return id;
}

/** DELETE ends the session; true when it was still live (2xx), false when it had gone (404). */
async function closeSession(t: Target, id: string): Promise<boolean> {
  const answer = await sendPatiently(inSession({ url: t.url, method: "DELETE", headers: { authorization: `Bearer ${t.key}`, "mcp-protocol-version": "2025-11-25" } }, id));
  if (answer.status === 404) return false;
  if (answer.status < 200 || answer.status > 299) throw new Error(`DELETE of a session: HTTP ${answer.status} ${answer.text.slice(0, 300)}`);
  return true;
}

/** Runs `task(i)` for i in 0…n−1, `PARALLEL` at a time, results in order. */
async function inBatches<T>(n: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(n);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < n; i = next++) results[i] = await task(i);
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, n) }, worker));
  return results;
}

async function fill(t: Target, rss: () => number, log: (line: string) => void): Promise<SessionMemory> {
  for (const id of await inBatches(WARMUP_SESSIONS, () => openSession(t))) await closeSession(t, id);
  await sleep(SETTLE_MS);
  const rssBeforeBytes = rss();
  log(`memory: ${(rssBeforeBytes / MB).toFixed(0)} MB resident with no session; opening ${SESSIONS} sessions`);
  const started = Date.now();
  const ids = await inBatches(SESSIONS, (i) => {
    if (i > 0 && i % 250 === 0) log(`memory: ${i} sessions open`);
    return openSession(t);
  });
  log(`memory: ${ids.length} sessions opened in ${((Date.now() - started) / 1000).toFixed(1)} s; waiting ${SETTLE_MS / 1000} s`);
  await sleep(SETTLE_MS);
  const rssAfterBytes = rss();
  const live = await inBatches(ids.length, (i) => closeSession(t, ids[i]));
  const growthMb = (rssAfterBytes - rssBeforeBytes) / MB;
  return { sessions: SESSIONS, warmupSessions: WARMUP_SESSIONS, settleMs: SETTLE_MS, rssBeforeBytes, rssAfterBytes, growthMb, targetMb: TARGET_MB, liveAtReading: live.filter(Boolean).length };
}

/**
 * Starts the stateful instance on `databaseUrl` (already seeded), fills it with 1,000 sessions
 * of the member on its server's endpoint and reads the Next.js server's resident memory
 * (VmRSS of its process group) before and after. The instance is stopped before returning.
 */
export async function measureSessionMemory(databaseUrl: string, endpoint: { path: string; key: string; tools: number }, log: (line: string) => void): Promise<SessionMemory> {
  let app: StartedApp | null = null;
  try {
    app = await startProductionApp(log, { DATABASE_URL: databaseUrl, MCP_STATEFUL_SESSIONS: "true", MCP_MAX_SESSIONS: String(2 * SESSIONS) });
    const group = nextServerGroup(app.supervisor.pid!);
    const result = await fill({ url: app.url + endpoint.path, key: endpoint.key, tools: endpoint.tools }, () => groupRss(group), log);
    if (result.liveAtReading !== SESSIONS) throw new Error(`only ${result.liveAtReading} of ${SESSIONS} sessions were still live at the reading: the figure is not for ${SESSIONS} sessions`);
    return result;
  } finally {
    await app?.stop();
  }
}

export function formatSessionMemory(m: SessionMemory): string {
  return `RSS growth for ${m.sessions.toLocaleString("en-US")} sessions: ${m.growthMb.toFixed(0)} MB (target ≤ ${m.targetMb} MB) — ${(m.rssBeforeBytes / MB).toFixed(0)} → ${(m.rssAfterBytes / MB).toFixed(0)} MB resident (Next.js server process group, ${m.warmupSessions} sessions opened and closed first, ${m.settleMs / 1000} s after the last one opened).`;
}
