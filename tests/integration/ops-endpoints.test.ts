import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { api } from "@/tests/helpers/api";
import { startAppInstance, type AppInstance } from "@/tests/helpers/app-instance";
import { createTenant } from "@/tests/helpers/factories";
import { startTestRedis, type TestRedis } from "@/tests/helpers/redis-server";
import { countUpstreamCall, trackLiveMcpSessions } from "@/lib/ops/metrics";

/**
 * Issue 7 "Operations": /api/health (liveness) and /api/ready (database and Redis reachable;
 * Redis optional when not configured), structured JSON logs with request ids and no secrets,
 * Prometheus metrics at /api/metrics (request counts and latencies per endpoint, rate-limit
 * rejections, upstream call outcomes, live sessions).
 */

const API_BUDGET = 3;

beforeAll(() => {
  // This process runs without Redis (limits per process); the instances below use one.
  process.env.REDIS_URL = "";
  process.env.API_RATE_LIMIT = String(API_BUDGET);
});

afterEach(() => vi.unstubAllEnvs());

/** The value of one sample line of the exposition text, e.g. `name{a="b"} 3`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(series + " "));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("/api/health (liveness)", () => {
  it("answers 200 with a JSON body and is never cached", async () => {
    const health = await api(null).get("/api/health");
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: "ok" });
    expect(health.headers.get("cache-control")).toBe("no-store");
  });
});

describe("/api/ready (database and Redis reachable; Redis optional when not configured)", () => {
  it("without REDIS_URL: ready when the database answers, Redis reported as not configured", async () => {
    const ready = await api(null).get("/api/ready");
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: "ready", checks: { database: "up", redis: "not configured" } });
  });

  describe("with REDIS_URL", () => {
    let redis: TestRedis;
    let instance: AppInstance;

    beforeAll(async () => {
      redis = await startTestRedis();
      // Readiness with Redis configured: a default install has none (the block above covers that).
      instance = await startAppInstance({ REDIS_URL: redis.url });
    }, 60_000);

    afterAll(async () => {
      await instance?.stop();
      await redis?.dispose();
    });

    it("the first /api/ready after start reports Redis up: a connection still being made is waited for, not reported down", async () => {
      const first = await instance.fetch("/api/ready");
      expect({ status: first.status, body: await first.json() }).toEqual({ status: 200, body: { status: "ready", checks: { database: "up", redis: "up" } } });
    });

    it("200 while Redis answers, 503 naming Redis while it is down, 200 again when it is back", async () => {
      const readyNow = async () => {
        const response = await instance.fetch("/api/ready");
        return { status: response.status, body: await response.json() };
      };
      await vi.waitFor(async () => expect(await readyNow()).toEqual({ status: 200, body: { status: "ready", checks: { database: "up", redis: "up" } } }), { timeout: 5_000 });

      await redis.stop();
      expect(await readyNow()).toEqual({ status: 503, body: { status: "unavailable", checks: { database: "up", redis: "down" } } });
      // Liveness is unaffected: the instance serves, only readiness reports the missing part.
      expect((await instance.fetch("/api/health")).status).toBe(200);

      await redis.restart();
      await vi.waitFor(async () => expect((await readyNow()).status).toBe(200), { timeout: 10_000, interval: 100 });
    });
  });
});

describe("structured JSON logs with request ids and no secrets", () => {
  it("one access-log line per API request: method, route, status, duration, request id — never the credential", async () => {
    const { member } = await createTenant();
    // info: access-log lines are what is under test (tests are silent by default).
    const instance = await startAppInstance({ LOG_LEVEL: "info" });
    try {
      const requestId = `test-${Date.now()}`;
      const response = await instance.fetch("/api/v1/orgs?limit=1", {
        headers: { authorization: `Bearer ${member.token}`, "x-request-id": requestId },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get("x-request-id")).toBe(requestId);
      const unknown = await instance.fetch(`/api/v1/orgs/${"0".repeat(24)}`, { headers: { authorization: "Bearer sb_not-a-real-key" } });
      expect(unknown.status).toBe(401);

      // Both access lines: the second request's may reach the pipe after the first one's.
      await vi.waitFor(() => {
        expect(instance.output()).toContain(requestId);
        expect(instance.output()).toContain('"status":401');
      });
      const lines = instance.output().split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
      const access = lines.filter((l) => l.msg === "request");
      expect(access.find((l) => l.requestId === requestId)).toMatchObject({
        level: 30,
        service: "switchboard",
        method: "GET",
        route: "/api/v1/orgs",
        status: 200,
        durationMs: expect.any(Number),
      });
      // The refused request is logged with its own generated id and its route template.
      expect(access.find((l) => l.status === 401)).toMatchObject({ route: "/api/v1/orgs/{orgId}", requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      expect(instance.output()).not.toContain(member.token);
      expect(instance.output()).not.toContain("sb_not-a-real-key");
    } finally {
      await instance.stop();
    }
  });
});

describe("Prometheus metrics at /api/metrics", () => {
  it("request counts and latencies per endpoint, rate-limit rejections, upstream call outcomes, live sessions", async () => {
    const { member } = await createTenant();
    const before = (await api(null).get("/api/metrics")).text;
    const series = 'switchboard_http_requests_total{route="/api/v1/orgs",method="GET",status="200"}';
    const startCount = sample(before, series) ?? 0;
    for (let i = 0; i < API_BUDGET; i++) expect((await api(member.token).get("/api/v1/orgs")).status).toBe(200);
    expect((await api(member.token).get("/api/v1/orgs")).status).toBe(429);
    countUpstreamCall("mcp", "ok");
    countUpstreamCall("http", "error");
    trackLiveMcpSessions(() => 7);

    const metrics = await api(null).get("/api/metrics");
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = metrics.text;
    expect(sample(text, series)).toBe(startCount + API_BUDGET);
    expect(sample(text, 'switchboard_http_requests_total{route="/api/v1/orgs",method="GET",status="429"}')).toBe(1);
    expect(sample(text, 'switchboard_http_request_duration_seconds_count{route="/api/v1/orgs",method="GET",status="200"}')).toBe(startCount + API_BUDGET);
    expect(text).toContain('switchboard_http_request_duration_seconds_bucket{le="0.1",route="/api/v1/orgs",method="GET",status="200"}');
    expect(sample(text, 'switchboard_rate_limit_rejections_total{limiter="api"}')).toBe(1);
    expect(sample(text, 'switchboard_upstream_calls_total{kind="mcp",outcome="ok"}')).toBe(1);
    expect(sample(text, 'switchboard_upstream_calls_total{kind="http",outcome="error"}')).toBe(1);
    expect(sample(text, "switchboard_mcp_sessions")).toBe(7);
    // Labels are route templates, never ids.
    expect(text).not.toContain(member.apiKeyId);
  });

  it("METRICS_TOKEN: without it the endpoint is open; with it only that bearer token is let in", async () => {
    // The setting under test: the metrics endpoint is open without it.
    vi.stubEnv("METRICS_TOKEN", "scrape-secret");
    expect((await api(null).get("/api/metrics")).status).toBe(401);
    expect((await api("wrong-token").get("/api/metrics")).status).toBe(401);
    const allowed = await api("scrape-secret").get("/api/metrics");
    expect(allowed.status).toBe(200);
    expect(allowed.text).toContain("switchboard_http_requests_total");
  });
});
