import { callEndingsWritten } from "@/lib/audit/write-call-rows";
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, dbPool } from "@/lib/db/client";
import { api } from "@/tests/helpers/api";
import { createTenant, type Tenant } from "@/tests/helpers/factories";
import { startHttpApi, type HttpApiStub } from "@/tests/helpers/http-api-stub";
import { postRaw } from "@/tests/helpers/mcp-clients";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";

/**
 * Concurrent tool calls share their audit writes (one INSERT for the "started" rows, one
 * UPDATE for the endings, lib/audit/write-call-rows.ts) and still keep "a tool call is
 * never executed without its audit event" for each of them: every request the HTTP API
 * receives finds its own row already committed, a row the database refuses stops only its
 * own call, and an ending the database refuses loses neither the others' endings nor its
 * own "started" row.
 */

let app: RouteServer;
let httpApi: HttpApiStub;
/** For each `q` the API received: whether its call's audit row was committed at that moment. */
const committedWhenSeen = new Map<string, boolean>();

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

beforeAll(async () => {
  [app, httpApi] = await Promise.all([startRouteServer(), startHttpApi()]);
  httpApi.route("GET", "/search", (req, res) => {
    const q = new URL(req.url, "http://x").searchParams.get("q")!;
    void db()
      .$queryRaw<Array<{ n: bigint }>>`SELECT count(*) AS n FROM audit_events WHERE action = 'tool.call' AND data->>'argumentsSha256' = ${sha256(JSON.stringify({ q }))}`
      .then(([row]) => {
        committedWhenSeen.set(q, Number(row.n) === 1);
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ q }));
      });
  });
});
afterAll(async () => {
  await Promise.all([app.close(), httpApi.close()]);
});

async function setup(): Promise<{ t: Tenant; serverId: string }> {
  const t = await createTenant();
  const http = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
    type: "http",
    name: "Search",
    config: { baseUrl: httpApi.origin },
    tools: [{ name: "search", inputSchema: { type: "object", properties: { q: { type: "string" } } }, request: { method: "GET", path: "/search" } }],
  });
  expect(http.status, http.text).toBe(201);
  const server = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "S", connectorIds: [http.body.id] });
  expect(server.status, server.text).toBe(201);
  // One call first, so the bursts below meet warm caches (the caller's view, the key) as
  // concurrent calls on a running instance do, not a dozen cold resolutions at once.
  const warm = await call(t, server.body.id, `warm-${t.org.id}`);
  expect(warm.body.result?.structuredContent, JSON.stringify(warm.body)).toBeDefined();
  return { t, serverId: server.body.id as string };
}

function call(t: Tenant, serverId: string, q: string) {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "search", arguments: { q } } });
  return postRaw(`${app.origin}/mcp/${serverId}`, body, { authorization: `Bearer ${t.member.token}`, "mcp-protocol-version": "2025-11-25" });
}

/** The org's tool.call rows, once the endings this process submitted are written (they follow the answers). */
const events = async (t: Tenant) => {
  await callEndingsWritten();
  return db().auditEvent.findMany({ where: { orgId: t.org.id, action: "tool.call" } });
};
const status = (e: { data: unknown }) => (e.data as { status: string }).status;

/** Runs `body` with a trigger refusing `op` on tool.call rows of `t`'s organization. */
async function withRefusal(t: Tenant, op: "INSERT" | "UPDATE", body: () => Promise<void>): Promise<void> {
  const name = `refuse_${op.toLowerCase()}_${t.org.id.toLowerCase().replace(/[^a-z0-9]/g, "")}`;
  await db().$executeRawUnsafe(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit log refuses writes'; END $$`);
  await db().$executeRawUnsafe(`CREATE TRIGGER ${name} BEFORE ${op} ON audit_events FOR EACH ROW WHEN (NEW.org_id = '${t.org.id}' AND NEW.action = 'tool.call') EXECUTE FUNCTION ${name}()`);
  try {
    await body();
  } finally {
    await callEndingsWritten(); // the refusal must meet the endings, which follow the answers
    await db().$executeRawUnsafe(`DROP TRIGGER ${name} ON audit_events`);
    await db().$executeRawUnsafe(`DROP FUNCTION ${name}()`);
  }
}

describe("tool-call audit rows written together", () => {
  it("16 concurrent calls: the API finds each call's row committed when its request arrives, and every row ends \"finished\"", async () => {
    const { t, serverId } = await setup();
    const qs = Array.from({ length: 16 }, (_, i) => `grouped-${t.org.id}-${i}`);
    const answers = await Promise.all(qs.map((q) => call(t, serverId, q)));
    answers.forEach((res, i) => expect(res.body.result?.structuredContent, JSON.stringify(res.body)).toEqual({ q: qs[i] }));
    expect(qs.map((q) => committedWhenSeen.get(q))).toEqual(qs.map(() => true));
    const rows = await events(t);
    expect(rows).toHaveLength(17);
    expect(rows.map(status)).toEqual(rows.map(() => "finished"));
    expect(new Set(rows.map((r) => r.id)).size).toBe(17);
  });

  it("a refused row among concurrent calls of two organizations stops only that organization's calls", async () => {
    const [a, b] = await Promise.all([setup(), setup()]);
    const seenBefore = httpApi.seen.length;
    await withRefusal(a.t, "INSERT", async () => {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? call(a.t, a.serverId, `refused-${i}`) : call(b.t, b.serverId, `kept-${b.t.org.id}-${i}`))),
      );
      answers.forEach((res, i) => {
        if (i % 2 === 0) expect(res.body.error?.message, JSON.stringify(res.body)).toContain("could not be recorded in the audit log");
        else expect(res.body.result?.isError, JSON.stringify(res.body)).toBeUndefined();
      });
    });
    // Only b's five calls reached the API, each with its row.
    expect(httpApi.seen.slice(seenBefore).map((r) => new URL(r.url, "http://x").searchParams.get("q")!.startsWith("kept-"))).toEqual([true, true, true, true, true]);
    expect(await events(a.t)).toHaveLength(1); // its warm-up call's, before the refusal
    expect((await events(b.t)).map(status)).toEqual(Array(6).fill("finished"));
  });

  it("a group that committed but whose answer was lost with the connection: its call goes on, with its one row", async () => {
    const { t, serverId } = await setup();
    const pool = dbPool()!;
    const query = pool.query;
    let lost = 0;
    // The first group statement inserting a row (this call's: nothing else calls meanwhile) commits, then its answer is lost.
    pool.query = (async (...args: Parameters<typeof query>) => {
      const result = await (query as (...a: unknown[]) => Promise<unknown>).apply(pool, args);
      const config = args[0] as { name?: string; values?: unknown[][] };
      if (lost === 0 && config.name === "sb_write_tool_call_rows" && (config.values?.[0]?.length ?? 0) > 0) {
        lost++;
        throw new Error("Connection terminated unexpectedly");
      }
      return result;
    }) as typeof query;
    const seenBefore = httpApi.seen.length;
    try {
      const res = await call(t, serverId, `lost-answer-${t.org.id}`);
      expect(res.body.result?.structuredContent, JSON.stringify(res.body)).toEqual({ q: `lost-answer-${t.org.id}` });
    } finally {
      pool.query = query;
    }
    expect(lost).toBe(1);
    expect(httpApi.seen.length - seenBefore).toBe(1);
    expect((await events(t)).map(status)).toEqual(["finished", "finished"]); // the warm-up call's and this one's
  });

  it("endings the database refuses for one organization: its calls still answer and keep their \"started\" rows, the other's rows end \"finished\"", async () => {
    const [a, b] = await Promise.all([setup(), setup()]);
    await withRefusal(a.t, "UPDATE", async () => {
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? call(a.t, a.serverId, `a-${a.t.org.id}-${i}`) : call(b.t, b.serverId, `b-${b.t.org.id}-${i}`))));
      answers.forEach((res) => expect(res.body.result?.structuredContent, JSON.stringify(res.body)).toBeDefined());
    });
    expect((await events(a.t)).map(status).sort()).toEqual(["finished", ...Array(5).fill("started")]); // the warm-up call ended before the refusal
    expect((await events(b.t)).map(status)).toEqual(Array(6).fill("finished"));
  });
});
