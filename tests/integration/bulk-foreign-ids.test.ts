import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { api } from "@/tests/helpers/api";
import { upload, useTempFilesDir } from "@/tests/helpers/files";
import { createHttpConnector, createTenant, type Tenant } from "@/tests/helpers/factories";

/**
 * Every bulk endpoint with one list mixing the caller's own object, another tenant's and an id
 * that names nothing: the foreign one is not acted on, and its result reads exactly like the
 * missing one's (same code, same message), so a batch cannot be used to learn what exists.
 */

beforeAll(() => {
  useTempFilesDir();
});

interface BulkCase {
  name: string;
  path: string;
  make: (t: Tenant) => Promise<string>;
  stillThere: (id: string) => Promise<boolean>;
}

const toolOf = async (t: Tenant, name: string) => {
  const connector = await createHttpConnector(t, name, ["a", "b"]);
  return (await db().tool.findFirstOrThrow({ where: { connectorId: connector, name: "a" }, select: { id: true } })).id;
};

const cases: BulkCase[] = [
  { name: "connectors", path: "/api/v1/connectors/bulk-delete", make: (t) => createHttpConnector(t, "C", ["a"]), stillThere: async (id) => (await db().connector.count({ where: { id } })) === 1 },
  {
    name: "skills",
    path: "/api/v1/skills/bulk-delete",
    make: async (t) => (await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/skills`, { name: "S", content: "x" })).body.id,
    stillThere: async (id) => (await db().skill.count({ where: { id } })) === 1,
  },
  {
    name: "stored resources",
    path: "/api/v1/resources/bulk-delete",
    make: async (t) => {
      const connector = await createHttpConnector(t, "R", ["a"]);
      return (await api(t.admin.token).post(`/api/v1/connectors/${connector}/resources`, { uri: "docs://page/1", name: "P", fetchConfig: { text: "hi" } })).body.id;
    },
    stillThere: async (id) => (await db().storedResource.count({ where: { id } })) === 1,
  },
  {
    name: "files",
    path: "/api/v1/files/bulk-delete",
    make: async (t) => (await upload(t.admin.token, t.workspace.id, { bytes: "x", name: "x.txt", visibility: "workspace" })).body.id,
    stillThere: async (id) => (await db().file.count({ where: { id } })) === 1,
  },
  {
    name: "API keys",
    path: "/api/v1/api-keys/bulk-revoke",
    make: async (t) => (await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/api-keys`, { name: "k" })).body.id,
    stillThere: async (id) => (await db().apiKey.count({ where: { id, revokedAt: null } })) === 1,
  },
];

describe("bulk endpoints with another tenant's ids", () => {
  for (const c of cases) {
    it(`${c.name}: the foreign id stays and answers like a missing one`, async () => {
      const t = await createTenant();
      const other = await createTenant();
      const own = await c.make(t);
      const foreign = await c.make(other);
      const missing = "cm_no_such_object_000000";
      const res = await api(t.admin.token).post(c.path, { ids: [foreign, own, missing] });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ done: 1, failed: 2 });
      const [f, o, m] = res.body.results;
      expect(o).toEqual({ id: own, ok: true });
      expect(f.ok).toBe(false);
      expect(f.error).toEqual(m.error);
      expect(await c.stillThere(foreign)).toBe(true);
      expect(await c.stillThere(own)).toBe(false);
    });
  }

  it("a connector's tools: another connector's (another tenant's) tool stays and answers like a missing one", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const connector = await createHttpConnector(t, "Mine", ["a", "b"]);
    const own = (await db().tool.findFirstOrThrow({ where: { connectorId: connector, name: "a" }, select: { id: true } })).id;
    const foreign = await toolOf(other, "Theirs");
    const res = await api(t.admin.token).post(`/api/v1/connectors/${connector}/tools/bulk-delete`, { ids: [foreign, own, "no-such-tool"] });
    expect(res.status).toBe(200);
    const [f, o, m] = res.body.results;
    expect(o).toEqual({ id: own, ok: true });
    expect(f.error).toEqual(m.error);
    expect(await db().tool.count({ where: { id: foreign } })).toBe(1);
    // And the other tenant's connector itself is not found, exactly like a missing one.
    const theirs = await db().tool.findFirstOrThrow({ where: { id: foreign }, select: { connectorId: true } });
    const viaTheirs = await api(t.admin.token).post(`/api/v1/connectors/${theirs.connectorId}/tools/bulk-delete`, { ids: [foreign] });
    const viaMissing = await api(t.admin.token).post("/api/v1/connectors/no-such-connector/tools/bulk-delete", { ids: [foreign] });
    expect(viaTheirs.status).toBe(404);
    expect(viaTheirs.body).toEqual(viaMissing.body);
  });
});
