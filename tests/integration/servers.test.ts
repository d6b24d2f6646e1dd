import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { api } from "@/tests/helpers/api";
import { createApiKeyFor, createTenant, createWorkspace, INSTANCE_KEY, makeConnector, uniqueSuffix } from "@/tests/helpers/factories";

const connectorIn = (orgId: string, name = "CRM") => makeConnector({ orgId }, { name, slug: `${name.toLowerCase()}-${uniqueSuffix()}` });

const assignment = (serverId: string) =>
  db().mcpServerConnector.findMany({ where: { serverId }, orderBy: { position: "asc" }, select: { connectorId: true, position: true } });

describe("MCP servers API", () => {
  afterEach(() => {
    delete process.env.PUBLIC_URL;
  });

  it("an admin creates a server with connectors in order; its url is absolute and ends in /mcp/<id>", async () => {
    const t = await createTenant();
    const [a, b] = [await connectorIn(t.org.id, "A"), await connectorIn(t.org.id, "B")];
    const res = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, {
      name: "Support",
      instructions: "Use the CRM first.",
      connectorIds: [b.id, a.id],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(String),
      name: "Support",
      workspaceId: t.workspace.id,
      orgId: t.org.id,
      instructions: "Use the CRM first.",
      connectorIds: [b.id, a.id],
      createdAt: expect.any(String),
    });
    expect(res.body.url).toBe(`http://localhost:3000/mcp/${res.body.id}`);
    expect(await assignment(res.body.id)).toEqual([
      { connectorId: b.id, position: 0 },
      { connectorId: a.id, position: 1 },
    ]);
  });

  it("builds the url from PUBLIC_URL when it is set", async () => {
    const t = await createTenant();
    // The setting under test: the url comes from PUBLIC_URL when set.
    process.env.PUBLIC_URL = "https://switchboard.example.com/";
    const res = await api(t.owner.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Public" });
    expect(res.status).toBe(201);
    expect(res.body.url).toBe(`https://switchboard.example.com/mcp/${res.body.id}`);
    const read = await api(t.owner.token).get(`/api/v1/servers/${res.body.id}`);
    expect(read.body.url).toBe(res.body.url);
  });

  it("without PUBLIC_URL, the url names the Host the client used (an allowed one), not the server's listening address", async () => {
    const t = await createTenant();
    // A deployment's own host name allowed (a default install allows the localhost names).
    process.env.MCP_ALLOWED_HOSTS = "mcp.example.org";
    try {
      const headers = { host: "mcp.example.org:8443", "x-forwarded-proto": "https" };
      const res = await api(t.owner.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Behind a proxy" }, { headers });
      expect(res.status).toBe(201);
      expect(res.body.url).toBe(`https://mcp.example.org:8443/mcp/${res.body.id}`);
      expect((await api(t.owner.token).get(`/api/v1/servers/${res.body.id}`, { headers })).body.url).toBe(res.body.url);
      // A Host the MCP endpoints would refuse is never repeated back.
      const made_up = await api(t.owner.token).get(`/api/v1/servers/${res.body.id}`, { headers: { host: "evil.example" } });
      expect(made_up.body.url).toBe(`http://localhost:3000/mcp/${res.body.id}`);
    } finally {
      delete process.env.MCP_ALLOWED_HOSTS;
    }
  });

  it("PUT connectors replaces the assignment and keeps the given order", async () => {
    const t = await createTenant();
    const [a, b, c] = [await connectorIn(t.org.id, "A"), await connectorIn(t.org.id, "B"), await connectorIn(t.org.id, "C")];
    const created = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "S", connectorIds: [a.id, b.id] });
    const res = await api(t.admin.token).put(`/api/v1/servers/${created.body.id}/connectors`, { connectorIds: [c.id, a.id] });
    expect(res.status).toBe(200);
    expect(res.body.connectorIds).toEqual([c.id, a.id]);
    expect(await assignment(created.body.id)).toEqual([
      { connectorId: c.id, position: 0 },
      { connectorId: a.id, position: 1 },
    ]);
    const version = async () => (await db().organization.findUniqueOrThrow({ where: { id: t.org.id } })).configVersion;
    const before = await version();
    const cleared = await api(t.admin.token).put(`/api/v1/servers/${created.body.id}/connectors`, { connectorIds: [] });
    expect(cleared.body.connectorIds).toEqual([]);
    expect(await assignment(created.body.id)).toEqual([]);
    // Live MCP snapshots of the organization are rebuilt after an assignment change.
    expect(await version()).toBeGreaterThan(before);
  });

  it("another organization's connector cannot be assigned: 422 on connectorIds, assignment unchanged", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const own = await connectorIn(t.org.id, "Own");
    const foreign = await connectorIn(other.org.id, "Foreign");
    const created = await api(t.owner.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "S", connectorIds: [own.id] });

    const viaPut = await api(t.owner.token).put(`/api/v1/servers/${created.body.id}/connectors`, { connectorIds: [own.id, foreign.id] });
    expect(viaPut.status).toBe(422);
    expect(viaPut.headers.get("content-type")).toContain("application/problem+json");
    expect(viaPut.body.errors).toEqual([{ path: "connectorIds", message: expect.any(String) }]);
    expect(await assignment(created.body.id)).toEqual([{ connectorId: own.id, position: 0 }]);

    // An unknown id gets exactly the same answer: nothing tells the caller the foreign one exists.
    const unknown = await api(t.owner.token).put(`/api/v1/servers/${created.body.id}/connectors`, { connectorIds: [own.id, "conn_does_not_exist"] });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual(viaPut.body);

    // Even the instance credential cannot cross organizations.
    const viaInstance = await api(INSTANCE_KEY).patch(`/api/v1/servers/${created.body.id}`, { connectorIds: [foreign.id] });
    expect(viaInstance.status).toBe(422);
    const viaCreate = await api(INSTANCE_KEY).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "X", connectorIds: [foreign.id] });
    expect(viaCreate.status).toBe(422);
    expect(await db().mcpServer.count({ where: { workspaceId: t.workspace.id } })).toBe(1);
    expect(await assignment(created.body.id)).toEqual([{ connectorId: own.id, position: 0 }]);
  });

  it("a connector listed twice is a 422", async () => {
    const t = await createTenant();
    const a = await connectorIn(t.org.id);
    const res = await api(t.owner.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "S", connectorIds: [a.id, a.id] });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].path).toBe("connectorIds");
  });

  it("lists a workspace's servers with pagination, and nothing of another workspace", async () => {
    const t = await createTenant();
    const otherWs = await createWorkspace(t.org.id);
    const ids: string[] = [];
    for (const name of ["One", "Two", "Three"]) {
      ids.push((await api(INSTANCE_KEY).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name })).body.id);
    }
    await api(INSTANCE_KEY).post(`/api/v1/workspaces/${otherWs.id}/servers`, { name: "Elsewhere" });

    const page1 = await api(t.admin.token).get(`/api/v1/workspaces/${t.workspace.id}/servers?limit=2`);
    expect(page1.status).toBe(200);
    expect(page1.body.items).toHaveLength(2);
    expect(page1.body.nextCursor).toEqual(expect.any(String));
    const page2 = await api(t.admin.token).get(`/api/v1/workspaces/${t.workspace.id}/servers?limit=2&cursor=${page1.body.nextCursor}`);
    expect(page2.body.nextCursor).toBeNull();
    const listed = [...page1.body.items, ...page2.body.items];
    expect(listed.map((s: { id: string }) => s.id).sort()).toEqual([...ids].sort());
    expect(listed.every((s: { url: string; id: string }) => s.url.endsWith(`/mcp/${s.id}`))).toBe(true);
  });

  it("renames, changes instructions, deletes; each change is audited", async () => {
    const t = await createTenant();
    const created = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Old", instructions: "x" });
    const id = created.body.id;
    const patched = await api(t.admin.token).patch(`/api/v1/servers/${id}`, { name: "New", instructions: null });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id, name: "New", instructions: null });
    await api(t.admin.token).put(`/api/v1/servers/${id}/connectors`, { connectorIds: [] });
    expect((await api(t.admin.token).delete(`/api/v1/servers/${id}`)).status).toBe(204);
    expect((await api(t.admin.token).get(`/api/v1/servers/${id}`)).status).toBe(404);

    const events = await db().auditEvent.findMany({ where: { targetId: id }, orderBy: { createdAt: "asc" } });
    expect(events.map((e) => e.action)).toEqual(["server.create", "server.update", "server.connectors.set", "server.delete"]);
    expect(events.every((e) => e.orgId === t.org.id && e.workspaceId === t.workspace.id && e.actorId === t.admin.user.id)).toBe(true);
  });

  it("a plain member cannot see or create servers (404, as for a missing workspace)", async () => {
    const t = await createTenant();
    const server = await api(t.owner.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "S" });
    const member = api(t.member.token);
    expect((await member.get(`/api/v1/servers/${server.body.id}`)).status).toBe(404);
    expect((await member.get(`/api/v1/workspaces/${t.workspace.id}/servers`)).status).toBe(404);
    const create = await member.post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Mine" });
    expect(create.status).toBe(404);
    expect(await db().mcpServer.count({ where: { workspaceId: t.workspace.id } })).toBe(1);
  });

  it("an admin's API key reaches only the servers of its own workspace", async () => {
    const t = await createTenant();
    const otherWs = await createWorkspace(t.org.id);
    const elsewhere = await api(INSTANCE_KEY).post(`/api/v1/workspaces/${otherWs.id}/servers`, { name: "Elsewhere" });
    expect((await api(t.admin.token).get(`/api/v1/servers/${elsewhere.body.id}`)).status).toBe(404);
    const keyThere = await createApiKeyFor(t.admin.user, { id: otherWs.id, orgId: t.org.id });
    expect((await api(keyThere.token).get(`/api/v1/servers/${elsewhere.body.id}`)).status).toBe(200);
  });
});
