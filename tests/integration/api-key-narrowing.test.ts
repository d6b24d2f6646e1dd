import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { api } from "@/tests/helpers/api";
import { createApiKeyFor, createTenant } from "@/tests/helpers/factories";

/**
 * A key issues keys no wider than itself: not for another server (api-keys.test.ts), and not
 * for longer than it lives — else a key given out for a day could mint itself one forever.
 */

const keysPath = (workspaceId: string) => `/api/v1/workspaces/${workspaceId}/api-keys`;
const DAY_MS = 24 * 60 * 60 * 1000;

describe("API keys issued by an API key", () => {
  it("an expiring key cannot issue a key that outlives it; left out, the new key expires with it", async () => {
    const t = await createTenant();
    const expiresAt = new Date(Date.now() + DAY_MS);
    const shortLived = await createApiKeyFor(t.member.user, { id: t.workspace.id, orgId: t.org.id }, { expiresAt });
    const forever = await api(shortLived.token).post(keysPath(t.workspace.id), { name: "forever", expiresAt: null });
    expect(forever.status).toBe(403);
    const later = await api(shortLived.token).post(keysPath(t.workspace.id), { name: "later", expiresAt: new Date(Date.now() + 30 * DAY_MS).toISOString() });
    expect(later.status).toBe(403);
    const inherited = await api(shortLived.token).post(keysPath(t.workspace.id), { name: "inherited" });
    expect(inherited.status).toBe(201);
    expect(Date.parse(inherited.body.expiresAt)).toBe(expiresAt.getTime());
    const sooner = await api(shortLived.token).post(keysPath(t.workspace.id), { name: "sooner", expiresAt: new Date(Date.now() + DAY_MS / 2).toISOString() });
    expect(sooner.status).toBe(201);
    expect(await db().apiKey.count({ where: { workspaceId: t.workspace.id, name: { in: ["forever", "later"] } } })).toBe(0);
  });

  it("a key without expiry still issues keys without one", async () => {
    const t = await createTenant();
    const res = await api(t.member.token).post(keysPath(t.workspace.id), { name: "open" });
    expect(res.status).toBe(201);
    expect(res.body.expiresAt).toBeNull();
  });
});
