import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Redis } from "ioredis";
import { announce, watch } from "@/lib/config-version/config-version";
import { disconnectRedis } from "@/lib/redis/redis-connections";
import { startAppInstance, type AppInstance } from "@/tests/helpers/app-instance";
import { createTenant } from "@/tests/helpers/factories";
import { startTestRedis, type TestRedis } from "@/tests/helpers/redis-server";

/**
 * Issue 11 point 4: a configuration change announced on one instance reaches the watchers of
 * every other instance with its organization's id, through a real redis-server (Debian package
 * `redis-server`); this instance's own announcements reach its watchers once, through Redis
 * like everyone else's.
 */

let redis: TestRedis;
let other: AppInstance;
const heard: string[] = [];
let stopWatching: () => void;

beforeAll(async () => {
  redis = await startTestRedis();
  // Read when the Redis connections are first made, i.e. after this.
  process.env.REDIS_URL = redis.url;
  other = await startAppInstance({ REDIS_URL: redis.url });
  // Its Redis connection is up (a fresh instance's announcements would stay local until then).
  await vi.waitFor(async () => expect((await other.fetch("/api/ready")).status).toBe(200), { timeout: 15_000, interval: 200 });
  stopWatching = watch((orgId) => heard.push(orgId));
}, 60_000);

afterAll(async () => {
  stopWatching?.();
  await other?.stop();
  disconnectRedis();
  await redis?.dispose();
});

/** Announces `orgId` from this instance until its own watcher hears it (the subscription is made asynchronously). */
async function announceUntilHeard(orgId: string): Promise<void> {
  await vi.waitFor(() => {
    if (!heard.includes(orgId)) announce(orgId);
    expect(heard).toContain(orgId);
  }, { timeout: 10_000, interval: 200 });
}

describe("announcements travel through Redis", () => {
  it("a change committed on another instance reaches this instance's watchers with its organization's id", async () => {
    await announceUntilHeard("warm-up"); // this instance's subscription is in place
    const t = await createTenant();
    const revoked = await other.fetch(`/api/v1/api-keys/${t.member.apiKeyId}`, { method: "DELETE", headers: { authorization: `Bearer ${t.owner.token}` } });
    expect(revoked.status).toBe(204);
    await vi.waitFor(() => expect(heard).toContain(t.org.id), { timeout: 10_000 });
    expect(heard.filter((id) => id === t.org.id)).toEqual([t.org.id]);
  });

  it("this instance's announcements are published on Redis, and reach its own watchers once", async () => {
    const listener = new Redis(redis.url);
    const published: string[] = [];
    try {
      listener.on("message", (_channel: string, message: string) => published.push(message));
      await listener.subscribe("sb:config-changed");
      const t = await createTenant();
      announce(t.org.id);
      await vi.waitFor(() => expect(published).toContain(t.org.id));
      await vi.waitFor(() => expect(heard).toContain(t.org.id));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(heard.filter((id) => id === t.org.id)).toHaveLength(1);
    } finally {
      listener.disconnect();
    }
  });
});
