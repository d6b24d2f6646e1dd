import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "@/lib/db/embedded-postgres";
import { applyMigrations } from "@/lib/db/migrate";
import { logger } from "@/lib/log";
import { api } from "@/tests/helpers/api";
import { createTenant, INSTANCE_KEY, type Tenant } from "@/tests/helpers/factories";
import { freePort } from "@/tests/helpers/redis-server";

/**
 * Issue 7: "PostgreSQL stopped → 503 within a second, recovery after restart without restarting
 * the app". This file runs on a PostgreSQL of its own (the shared test database must stay up for
 * the other files): started here, stopped and started again on the same port and data, while
 * this process — the app — keeps its Prisma client and pool throughout.
 */

let server: EmbeddedPostgres | undefined;
let dataDir: string;
let port: number;
let tenant: Tenant;

async function startServer(): Promise<EmbeddedPostgres> {
  return startEmbeddedPostgres({ dataDir: path.join(dataDir, "data"), port, database: "switchboard_outage" });
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-outage-pg-"));
  fs.chmodSync(dataDir, 0o777);
  port = await freePort();
  server = await startServer();
  await applyMigrations(server.url);
  // The app's client is created on first use from DATABASE_URL: point it at this server.
  process.env.DATABASE_URL = server.url;
  // The product's default (the test workers' own is longer, tests/setup/worker-env.ts): this test is about it.
  process.env.DB_CONNECT_TIMEOUT_MS = "1000";
  delete (globalThis as { switchboardDb?: unknown }).switchboardDb;
  tenant = await createTenant();
});

afterAll(async () => {
  await (globalThis as { switchboardDb?: { $disconnect(): Promise<void> } }).switchboardDb?.$disconnect();
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A request and how long it took to be answered. */
async function timed<T>(send: () => Promise<T>): Promise<{ answer: T; ms: number }> {
  const started = performance.now();
  const answer = await send();
  return { answer, ms: performance.now() - started };
}

describe("PostgreSQL goes away", () => {
  it("PostgreSQL stopped → 503 within a second, recovery after restart without restarting the app", async () => {
    expect((await api(tenant.member.token).get("/api/v1/orgs")).status).toBe(200);
    expect((await api(null).get("/api/ready")).status).toBe(200);

    await server!.stop();
    server = undefined;

    const requests = [
      () => api(tenant.member.token).get("/api/v1/orgs"), // the key itself is looked up in the database
      () => api(INSTANCE_KEY).get("/api/v1/orgs"), // no lookup for the instance key, the list needs it
      () => api(INSTANCE_KEY).post("/api/v1/orgs", { name: "Down", slug: "down-org" }),
      () => api(tenant.owner.token).get(`/api/v1/orgs/${tenant.org.id}`),
    ];
    for (const send of requests) {
      const { answer, ms } = await timed(send);
      expect(answer.status).toBe(503);
      expect(answer.headers.get("content-type")).toBe("application/problem+json");
      expect(answer.body).toMatchObject({ status: 503, title: "Service unavailable", detail: expect.stringMatching(/database/i) });
      expect(ms).toBeLessThan(1_000);
    }
    const ready = await timed(() => api(null).get("/api/ready"));
    expect(ready.answer.status).toBe(503);
    expect(ready.answer.body).toMatchObject({ status: "unavailable", checks: { database: "down" } });
    expect(ready.ms).toBeLessThan(1_500);
    // Liveness does not depend on the database: the process itself is fine.
    expect((await api(null).get("/api/health")).status).toBe(200);

    server = await startServer();
    await vi.waitFor(async () => expect((await api(tenant.member.token).get("/api/v1/orgs")).status).toBe(200), {
      timeout: 10_000,
      interval: 100,
    });
    expect((await api(INSTANCE_KEY).post("/api/v1/orgs", { name: "Back", slug: `back-${tenant.org.slug}` })).status).toBe(201);
    expect((await api(null).get("/api/ready")).body).toMatchObject({ status: "ready", checks: { database: "up" } });
  });

  it("MCP requests while the database is down: each answered 503, the outage logged once per interval, not once per request", async () => {
    const error = vi.spyOn(logger, "error");
    const warn = vi.spyOn(logger, "warn");
    delete (globalThis as { switchboardDbDownLoggedAt?: number }).switchboardDbDownLoggedAt;
    await server!.stop();
    server = undefined;
    try {
      const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } };
      const headers = { accept: "application/json, text/event-stream", host: "localhost:3000" };
      for (let i = 0; i < 25; i++) {
        const res = await api(tenant.member.token).post(`/mcp/srv_${"0".repeat(24)}`, initialize, { headers });
        expect(res.status).toBe(503);
      }
      expect(error.mock.calls.filter(([, message]) => message === "MCP request failed")).toEqual([]);
      const outage = warn.mock.calls.filter(([, message]) => typeof message === "string" && message.startsWith("database unavailable"));
      expect(outage).toHaveLength(1);
    } finally {
      error.mockRestore();
      warn.mockRestore();
      server = await startServer();
    }
    await vi.waitFor(async () => expect((await api(tenant.member.token).get("/api/v1/orgs")).status).toBe(200), { timeout: 10_000, interval: 100 });
  });
});
