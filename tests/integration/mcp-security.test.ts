import http from "node:http";
import net from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { api } from "@/tests/helpers/api";
import { createTenant, INSTANCE_KEY, type Tenant } from "@/tests/helpers/factories";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";

/**
 * Issue 3 transport security over real HTTP: DNS-rebinding protection (Host, Origin),
 * credentials from the Authorization header only, 401 with WWW-Authenticate, per-key and
 * per-address rate limits with Retry-After, the body size limit, and a database outage.
 */

let app: RouteServer;
let t: Tenant;
let serverId: string;
beforeAll(async () => {
  app = await startRouteServer();
  t = await createTenant();
  const res = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "S", connectorIds: [] });
  serverId = res.body.id;
});
afterAll(() => app.close());

const ENV = ["MCP_ALLOWED_HOSTS", "PUBLIC_URL", "MCP_RATE_LIMIT", "MCP_RATE_WINDOW_SEC", "MCP_DEMO_RATE_LIMIT", "MCP_DEMO_RATE_WINDOW_SEC", "MCP_MAX_BODY_BYTES", "TRUSTED_PROXIES", "BEARER_MAX_FAILURES_PER_IP", "BEARER_FAILURE_WINDOW_SEC"];
afterEach(() => {
  for (const name of ENV) delete process.env[name];
});

const INIT = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } });

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
}

/** One request with exactly these headers (node:http lets a test set Host, unlike fetch). */
function raw(path: string, headers: Record<string, string>, body: string | null = INIT, opts: { chunked?: boolean } = {}): Promise<RawResponse> {
  const { port } = new URL(app.origin);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port: Number(port),
        path,
        method: body === null ? "GET" : "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          const data = text.startsWith("event:") ? text.split("\n").find((l) => l.startsWith("data: "))?.slice(6) : text;
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data ? JSON.parse(data) : null });
        });
      },
    );
    req.on("error", reject);
    if (body !== null && !opts.chunked) req.setHeader("content-length", Buffer.byteLength(body));
    if (body !== null) req.write(body);
    req.end();
  });
}

const bearer = (token = t.admin.token) => ({ authorization: `Bearer ${token}` });

describe("DNS rebinding protection", () => {
  it("refuses a Host that is not this platform with 403; localhost names are accepted", async () => {
    expect((await raw(`/mcp/${serverId}`, { ...bearer(), host: "evil.example" })).status).toBe(403);
    expect((await raw(`/mcp/demo`, { host: "evil.example:3000" })).status).toBe(403);
    for (const name of ["localhost:3000", "127.0.0.1", "[::1]:8080"]) {
      expect((await raw(`/mcp/${serverId}`, { ...bearer(), host: name })).status).toBe(200);
    }
  });

  it("refuses an Origin of another site with 403, even with a valid key; an Origin of this host is accepted", async () => {
    const refused = await raw(`/mcp/${serverId}`, { ...bearer(), origin: "https://evil.example" });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain("evil.example");
    expect((await raw(`/mcp/${serverId}`, { ...bearer(), origin: "null" })).status).toBe(403);
    expect((await raw(`/mcp/${serverId}`, { ...bearer(), origin: "http://localhost:3000" })).status).toBe(200);
  });

  it("MCP_ALLOWED_HOSTS replaces the localhost defaults; the host of PUBLIC_URL is always allowed", async () => {
    // The settings under test: a deployment's own host names (a default install allows the localhost names).
    process.env.MCP_ALLOWED_HOSTS = "mcp.example.com, other.example.org:8443";
    process.env.PUBLIC_URL = "https://switchboard.example.net/";
    for (const name of ["mcp.example.com", "other.example.org", "switchboard.example.net"]) {
      expect((await raw(`/mcp/${serverId}`, { ...bearer(), host: name, origin: `https://${name}` })).status).toBe(200);
    }
    expect((await raw(`/mcp/${serverId}`, { ...bearer(), host: "localhost" })).status).toBe(403);
    expect((await raw(`/mcp/${serverId}`, { ...bearer(), host: "mcp.example.com", origin: "https://evil.example" })).status).toBe(403);
  });
});

describe("credentials", () => {
  it("no key: 401 with a Bearer WWW-Authenticate challenge", async () => {
    const res = await raw(`/mcp/${serverId}`, {});
    expect(res.status).toBe(401);
    expect(res.headers["www-authenticate"]).toBe(`Bearer realm="switchboard", resource_metadata="${app.origin}/.well-known/oauth-protected-resource/mcp/${serverId}", scope="mcp offline_access"`);
    expect(res.body.error.message).toContain("Authorization: Bearer");
  });

  it("a key in the query string is never read: still 401", async () => {
    for (const query of [`api_key=${t.admin.token}`, `token=${t.admin.token}`, `access_token=${t.admin.token}`, `key=${t.admin.token}`]) {
      expect((await raw(`/mcp/${serverId}?${query}`, {})).status).toBe(401);
    }
  });

  it("a flood of unknown keys from one address: 429 with Retry-After once the failure budget is spent, without a database lookup", async () => {
    // A budget of 3 failures (default 30 a minute) so a short flood spends it.
    process.env.BEARER_MAX_FAILURES_PER_IP = "3";
    process.env.BEARER_FAILURE_WINDOW_SEC = "60";
    const flood = async () => (await raw(`/mcp/${serverId}`, bearer(`sb_guess-${Math.random()}`))).status;
    const statuses = [await flood(), await flood(), await flood(), await flood()];
    expect(statuses).toEqual([401, 401, 401, 429]);
    // With the database gone the limiter still answers, so it is not asking the database.
    const holder = globalThis as unknown as { switchboardDb?: PrismaClient };
    const real = holder.switchboardDb;
    holder.switchboardDb = new Proxy({} as PrismaClient, { get: () => { throw new Error("the database was asked"); } });
    try {
      const refused = await raw(`/mcp/${serverId}`, bearer(`sb_guess-${Math.random()}`));
      expect(refused.status).toBe(429);
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    } finally {
      holder.switchboardDb = real;
    }
    // The instance credential is not a guess: still served.
    expect((await raw(`/mcp/${serverId}`, bearer(INSTANCE_KEY))).status).toBe(200);
  });

  it("an unknown key: 401 invalid_token", async () => {
    const res = await raw(`/mcp/${serverId}`, bearer("sb_not_a_real_key"));
    expect(res.status).toBe(401);
    expect(res.headers["www-authenticate"]).toContain('error="invalid_token"');
  });
});

describe("rate limits", () => {
  it("each key has its own budget (MCP_RATE_LIMIT per MCP_RATE_WINDOW_SEC): over it, 429 with Retry-After", async () => {
    // A budget of 3 (default 600 a minute) so a few requests spend it; a window longer than the test.
    process.env.MCP_RATE_LIMIT = "3";
    process.env.MCP_RATE_WINDOW_SEC = "120";
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await raw(`/mcp/${serverId}`, bearer())).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await raw(`/mcp/${serverId}`, bearer());
    expect(limited.status).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect(Number(limited.headers["retry-after"])).toBeLessThanOrEqual(120);
    // Another key is unaffected.
    expect((await raw(`/mcp/${serverId}`, bearer(t.owner.token))).status).toBe(200);
  });

  it("/mcp/demo is limited per client address: the socket's, whatever X-Forwarded-For a direct client writes", async () => {
    // A budget of 2 (default 60 a minute) so a few requests spend it.
    process.env.MCP_DEMO_RATE_LIMIT = "2";
    process.env.MCP_DEMO_RATE_WINDOW_SEC = "61"; // a budget of its own, apart from the next test's
    // Three different spoofed addresses from one socket (127.0.0.1, no trusted proxy): one budget.
    const spoofed = [];
    for (const ip of ["203.0.113.1", "203.0.113.2", "203.0.113.3"]) spoofed.push((await raw("/mcp/demo", { "x-forwarded-for": ip })).status);
    expect(spoofed).toEqual([200, 200, 429]);
    const limited = await raw("/mcp/demo", { "x-forwarded-for": "198.51.100.4", "x-switchboard-socket-address": "198.51.100.4" });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
  });

  it("/mcp/demo behind a proxy listed in TRUSTED_PROXIES: the address that proxy forwards is the client", async () => {
    // A budget of 2 (default 60 a minute); the proxy under test is trusted (a default install trusts none).
    process.env.MCP_DEMO_RATE_LIMIT = "2";
    process.env.MCP_DEMO_RATE_WINDOW_SEC = "62";
    process.env.TRUSTED_PROXIES = "10.0.0.0/8, 127.0.0.1";
    const from = (chain: string) => raw("/mcp/demo", { "x-forwarded-for": chain });
    expect([(await from("203.0.113.7")).status, (await from("203.0.113.7")).status]).toEqual([200, 200]);
    expect((await from("203.0.113.7")).status).toBe(429);
    // A client-written entry left of the real one changes nothing; trusted hops are skipped.
    expect((await from("192.0.2.1, 203.0.113.7, 10.1.2.3")).status).toBe(429);
    expect((await from("203.0.113.8")).status).toBe(200);
  });
});

describe("body size limit", () => {
  it("a body over MCP_MAX_BODY_BYTES is refused with 413, announced or streamed", async () => {
    // A 2 KiB limit (default 4 MiB) so the bodies over it stay small.
    process.env.MCP_MAX_BODY_BYTES = "2048";
    const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _pad: "x".repeat(4096) } });
    expect((await raw(`/mcp/${serverId}`, bearer(), big)).status).toBe(413);
    expect((await raw(`/mcp/${serverId}`, bearer(), big, { chunked: true })).status).toBe(413);
    expect((await raw(`/mcp/${serverId}`, bearer())).status).toBe(200);
  });
});

describe("database outage", () => {
  it("answers 503 with a JSON-RPC error instead of hanging when PostgreSQL is unreachable", async () => {
    const dead = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = s.address() as net.AddressInfo;
        s.close(() => resolve(port));
      });
    });
    const holder = globalThis as unknown as { switchboardDb?: PrismaClient };
    const real = holder.switchboardDb;
    holder.switchboardDb = new PrismaClient({ adapter: new PrismaPg({ connectionString: `postgresql://x:y@127.0.0.1:${dead}/none`, connectionTimeoutMillis: 1000 }) });
    try {
      const res = await raw(`/mcp/${serverId}`, bearer());
      expect(res.status).toBe(503);
      expect(res.headers["retry-after"]).toBeDefined();
      expect(res.body.error.code).toBe(-32603);
    } finally {
      await holder.switchboardDb.$disconnect().catch(() => undefined);
      holder.switchboardDb = real;
    }
  });
});
