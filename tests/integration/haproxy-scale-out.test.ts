import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { startAppInstance, type AppInstance } from "@/tests/helpers/app-instance";
import { startHaproxy, type RunningHaproxy } from "@/tests/helpers/haproxy";
import { connectV1, postRaw } from "@/tests/helpers/mcp-clients";
import { startTestRedis, type TestRedis } from "@/tests/helpers/redis-server";

/**
 * Issue 28: two instances behind Debian's haproxy, wired as docker-compose.yml wires its `app`
 * replicas and its `lb` (deploy/haproxy.cfg, the same file, addresses substituted; one database
 * and one Redis shared). Requests without a session are spread over both instances; a stateful
 * MCP session (MCP_STATEFUL_SESSIONS=true, the setting docs/operations.md ("Scale out") says needs affinity)
 * lives in the memory of the instance that answered its initialize, and haproxy keeps sending
 * it there.
 */

const LIST = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };
const SESSIONS = 4;

let redis: TestRedis;
let instances: AppInstance[] = [];
let lb: RunningHaproxy;

beforeAll(async () => {
  redis = await startTestRedis();
// As docker-compose.yml wires its instances: one Redis, stateful sessions (what needs affinity), one shared SECRET_KEY.
  const env = { REDIS_URL: redis.url, MCP_STATEFUL_SESSIONS: "true", SECRET_KEY: "haproxy-test-secret-key-0123456789abcdef" };
  instances = await Promise.all([startAppInstance(env), startAppInstance(env)]);
  // As the compose file starts `lb` once the app's healthcheck passes: the instances here load
  // each route module on its first request, slower on a busy machine than haproxy's 2 s check.
  for (const instance of instances) {
    expect((await instance.fetch("/api/health")).status).toBe(200);
    await (await connectV1(`${instance.url}/mcp/demo`, null)).close();
  }
  lb = await startHaproxy(instances.map((instance) => new URL(instance.url).host));
}, 180_000);

afterAll(async () => {
  await lb?.stop();
  await Promise.all(instances.map((instance) => instance.stop()));
  await redis?.dispose();
});

describe("docker-compose.yml's wiring", () => {
  it("mounts the haproxy.cfg tested here, and its servers are the app service's port", () => {
    const compose = parse(fs.readFileSync("docker-compose.yml", "utf8"));
    expect(compose.services.lb.volumes).toContain("./deploy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro");
    expect(compose.services.app.healthcheck.test.join(" ")).toContain("127.0.0.1:3000/api/health");
    expect(fs.readFileSync("deploy/haproxy.cfg", "utf8")).toMatch(/server-template app \d+ app:3000 /);
  });
});

describe("two instances behind haproxy", () => {
  it("a client's stateful MCP sessions are spread over both instances, and each sticks to the one that holds it", async () => {
    const clients = [];
    for (let i = 0; i < SESSIONS; i++) clients.push(await connectV1(`${lb.url}/mcp/demo`, null));
    try {
      const owners = [];
      for (const { client, transport } of clients) {
        // Through haproxy: every request of the session is answered (the wrong instance says 404).
        for (let call = 0; call < 3; call++) expect((await client.listTools()).tools.length).toBeGreaterThan(0);
        // Asked directly, exactly one instance knows the session: the one haproxy sent it to.
        const headers = { "mcp-session-id": transport.sessionId!, "mcp-protocol-version": "2025-11-25" };
        const statuses = await Promise.all(instances.map(async (instance) => (await postRaw(`${instance.url}/mcp/demo`, LIST, headers)).status));
        expect(statuses.toSorted()).toEqual([200, 404]);
        owners.push(statuses.indexOf(200));
      }
      // Round robin for the initializes (no session yet): both instances hold sessions.
      expect(new Set(owners)).toEqual(new Set([0, 1]));
    } finally {
      await Promise.all(clients.map(({ close }) => close()));
    }
  });
});
