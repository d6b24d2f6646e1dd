/**
 * The client command of `npm run conformance:client-auth` (scripts/conformance-client-auth.ts):
 * the suite runs it once per `auth/…` scenario with the scenario's MCP server URL as its last
 * argument. It plays what an admin and a person do with a running Switchboard, over HTTP only:
 *
 * 1. create an `mcp` connector with `auth: { type: "oauth", connection }` for that URL (the
 *    pre-registered client of `MCP_CONFORMANCE_CONTEXT` when the scenario gives one) and an MCP
 *    server with it;
 * 2. connect: `POST /connectors/{id}/connections`, then follow the authorization URL as the
 *    person's browser would (the suite's authorization servers approve at once) to our
 *    callback, with the person's session cookie;
 * 3. call the scenario's `test-tool` through `/mcp/<serverId>` with the person's key; when the
 *    answer asks to connect (again), follow its connect link, as the person would — or, when
 *    the connector has no tools yet because discovery with the new connection was refused,
 *    connect again from the Connections list, which says the connection needs it — at most
 *    three connections in all (a person does not loop forever either).
 *
 * Exits 0 only when the tool answered; writes what happened to SWITCHBOARD_RESULT_FILE.
 */
import fs from "node:fs";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run this through npm run conformance:client-auth`);
  return value;
};
const BASE = env("SWITCHBOARD_BASE");
const KEY = env("SWITCHBOARD_KEY");
const COOKIE = env("SWITCHBOARD_COOKIE");
const CONNECTION = env("SWITCHBOARD_CONNECTION") as "shared" | "per_user";
const MAX_CONNECTS = 3;
const serverUrl = process.argv.at(-1)!;
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "unknown";
const wire = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? "2025-11-25";
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as { client_id?: string; client_secret?: string };
const steps: string[] = [];
const step = (line: string) => void steps.push(line);

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${BASE}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 400)}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The browser's part: from an address, follow redirects by hand (our pages with the session cookie) until a page answers. */
async function browse(start: string): Promise<{ status: number; text: string; url: string }> {
  let url = start;
  for (let hop = 0; hop < 8; hop++) {
    const ours = new URL(url).origin === new URL(BASE).origin;
    const res = await fetch(url, { redirect: "manual", headers: ours ? { cookie: COOKIE } : {}, signal: AbortSignal.timeout(15_000) });
    const location = res.headers.get("location");
    if (res.status >= 300 && res.status < 400 && location) {
      await res.body?.cancel();
      url = new URL(location, url).toString();
      continue;
    }
    return { status: res.status, text: await res.text(), url };
  }
  throw new Error(`too many redirects from ${start}`);
}

/** A page's text without its markup, for the log. */
const pageText = (html: string) => (/<p>(.*?)<\/p>/s.exec(html)?.[1] ?? html).slice(0, 300);

async function connectVia(start: string): Promise<boolean> {
  const page = await browse(start);
  step(`connect: ${page.status} ${pageText(page.text)}`);
  return page.status === 200;
}

type CallOutcome = { kind: "answered"; text: string } | { kind: "connect"; link: string; text: string } | { kind: "failed"; text: string };

async function callTool(serverId: string): Promise<CallOutcome> {
  // The scenario's own wire on our side too: 2025-era callers get a 2025-era upstream connection.
  const versionNegotiation = wire === "2025-11-25" ? { mode: "legacy" as const } : { mode: { pin: wire } };
  const client = new Client({ name: "switchboard-conformance-client-auth", version: "1.0.0" }, { capabilities: {}, versionNegotiation } as never);
  const transport = new StreamableHTTPClientTransport(new URL(`${BASE}/mcp/${serverId}`), { requestInit: { headers: { authorization: `Bearer ${KEY}` } } });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name.endsWith("test-tool"));
    if (!tool) return { kind: "failed", text: `no test-tool among ${JSON.stringify(tools.map((t) => t.name))}` };
    const result = (await client.callTool({ name: tool.name, arguments: {} })) as { isError?: boolean; content?: Array<{ type: string; text?: string }> };
    const text = (result.content ?? []).map((c) => c.text ?? "").join(" ");
    const link = /(https?:\/\/\S+\/api\/connections\/start\?\S+?)(?=\s|$)/.exec(text)?.[1];
    if (result.isError && link) return { kind: "connect", link, text };
    return result.isError ? { kind: "failed", text } : { kind: "answered", text };
  } finally {
    await client.close().catch(() => undefined);
  }
}

/**
 * What the person's Connections page offers when the connector's tools could not be discovered:
 * a new authorization URL when their connection needs reconnecting or needs more access (a
 * step-up asked during discovery: it stays connected, with `stepUpScopes`), else nothing.
 */
async function reconnectLink(connectorId: string): Promise<string | null> {
  const { items } = await api<{ items: Array<{ connectorId: string; status: string; stepUpScopes?: string[] }> }>("GET", "/me/connections");
  const mine = items.find((c) => c.connectorId === connectorId);
  step(`connections: ${mine ? `${mine.status}${mine.stepUpScopes ? `, needs more access (${mine.stepUpScopes.join(" ")})` : ""}` : "none"}`);
  if (mine?.status !== "needs_reconnect" && !mine?.stepUpScopes) return null;
  return (await api<{ authorizationUrl: string }>("POST", `/connectors/${connectorId}/connections`, {})).authorizationUrl;
}

async function main(): Promise<boolean> {
  const suffix = `${scenario.replace(/[^a-z0-9]+/gi, "-")}-${wire}`;
  const preRegistered = context.client_id ? { clientId: context.client_id, ...(context.client_secret ? { clientSecret: context.client_secret } : {}) } : {};
  const connector = await api<{ id: string }>("POST", `/orgs/${env("SWITCHBOARD_ORG")}/connectors`, {
    type: "mcp",
    name: `Conformance ${suffix}`.slice(0, 100),
    config: { url: serverUrl },
    auth: { type: "oauth", connection: CONNECTION, ...preRegistered },
  });
  const server = await api<{ id: string }>("POST", `/workspaces/${env("SWITCHBOARD_WORKSPACE")}/servers`, { name: `Conformance ${suffix}`.slice(0, 100), connectorIds: [connector.id] });
  step(`connector ${connector.id} (${CONNECTION}) for ${serverUrl}, server ${server.id}`);
  let connects = 0;
  try {
    const { authorizationUrl } = await api<{ authorizationUrl: string }>("POST", `/connectors/${connector.id}/connections`, {});
    connects++;
    if (!(await connectVia(authorizationUrl))) return false;
  } catch (e) {
    step(`connect refused: ${(e as Error).message}`);
    return false;
  }
  for (;;) {
    const outcome = await callTool(server.id);
    step(`call: ${outcome.kind}: ${outcome.text.slice(0, 300)}`);
    const again = outcome.kind === "connect" ? outcome.link : outcome.kind === "failed" && outcome.text.startsWith("no test-tool") ? await reconnectLink(connector.id) : null;
    if (!again) return outcome.kind === "answered" && outcome.text.trim() === "test";
    if (connects >= MAX_CONNECTS) {
      step(`gave up after ${connects} connections`);
      return false;
    }
    connects++;
    if (!(await connectVia(again))) return false;
  }
}

function finish(ok: boolean, error?: unknown): never {
  if (error) step(`error: ${error instanceof Error ? error.message : String(error)}`);
  const report = { scenario, wire, connection: CONNECTION, ok, steps };
  if (process.env.SWITCHBOARD_RESULT_FILE) fs.writeFileSync(process.env.SWITCHBOARD_RESULT_FILE, JSON.stringify(report));
  console.log(steps.join("\n"));
  process.exit(ok ? 0 : 1);
}

main().then((ok) => finish(ok), (e: unknown) => finish(false, e));
