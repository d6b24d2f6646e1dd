import { describe, expect, it } from "vitest";
import { api } from "@/tests/helpers/api";
import { upload, useTempFilesDir } from "@/tests/helpers/files";
import { browserSessionOf, createHttpConnector, createMcpServer, createTenant, makeMember } from "@/tests/helpers/factories";

/**
 * Search (`q`), sorting (`sort`, `order`) and paging through them on the JSON API's lists.
 * Names here share one case: how upper and lower case interleave is the database's collation.
 */

const names = (body: { items: { name: string }[] }) => body.items.map((i) => i.name);

describe("list parameters", () => {
  it("connectors: search by name or slug, sort by name both ways, and page through a sorted search", async () => {
    const t = await createTenant();
    for (const name of ["Delta CRM", "Alpha billing", "Charlie CRM", "Bravo crm", "Echo mail"]) await createHttpConnector(t, name, ["ping"]);
    const base = `/api/v1/orgs/${t.org.id}/connectors`;
    const admin = api(t.admin.token);

    // Without parameters: the list's own order (creation) as before.
    expect(names((await admin.get(base)).body)).toEqual(["Delta CRM", "Alpha billing", "Charlie CRM", "Bravo crm", "Echo mail"]);
    expect(names((await admin.get(`${base}?q=crm&sort=name`)).body)).toEqual(["Bravo crm", "Charlie CRM", "Delta CRM"]);
    expect(names((await admin.get(`${base}?q=CRM&sort=name&order=desc`)).body)).toEqual(["Delta CRM", "Charlie CRM", "Bravo crm"]);
    // The slug is searched too ("alpha-billing").
    expect(names((await admin.get(`${base}?q=alpha-bil`)).body)).toEqual(["Alpha billing"]);

    const first = await admin.get(`${base}?q=r&sort=name&limit=2`);
    expect(names(first.body)).toEqual(["Bravo crm", "Charlie CRM"]);
    const second = await admin.get(`${base}?q=r&sort=name&limit=2&cursor=${first.body.nextCursor}`);
    expect(names(second.body)).toEqual(["Delta CRM"]);
    expect(second.body.nextCursor).toBeNull();

    const none = await admin.get(`${base}?q=zzz`);
    expect(none.body).toEqual({ items: [], nextCursor: null });
  });

  it("an unknown sort key or order is a validation error naming the parameter", async () => {
    const t = await createTenant();
    const bad = await api(t.admin.token).get(`/api/v1/orgs/${t.org.id}/connectors?sort=secretHeaders`);
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([expect.objectContaining({ path: "sort" })]);
    const order = await api(t.admin.token).get(`/api/v1/orgs/${t.org.id}/connectors?order=sideways`);
    expect(order.status).toBe(422);
  });

  it("another tenant's list stays 404, whatever the search; its rows never match mine", async () => {
    const mine = await createTenant();
    const theirs = await createTenant();
    await createHttpConnector(theirs, "Shared Name", ["ping"]);
    await createHttpConnector(mine, "Shared Name too", ["ping"]);
    const foreign = await api(mine.admin.token).get(`/api/v1/orgs/${theirs.org.id}/connectors?q=shared&sort=name`);
    expect(foreign.status).toBe(404);
    const own = await api(mine.admin.token).get(`/api/v1/orgs/${mine.org.id}/connectors?q=shared`);
    expect(names(own.body)).toEqual(["Shared Name too"]);
    const servers = await api(mine.admin.token).get(`/api/v1/workspaces/${theirs.workspace.id}/servers?q=a`);
    expect(servers.status).toBe(404);
  });

  it("servers, roles and skills: search and sort by name", async () => {
    const t = await createTenant();
    const c = await createHttpConnector(t, "Tools", ["ping"]);
    for (const name of ["Support", "Billing desk", "Sales"]) await createMcpServer(t, [c], name);
    const admin = api(t.admin.token);
    expect(names((await admin.get(`/api/v1/workspaces/${t.workspace.id}/servers?sort=name`)).body)).toEqual(["Billing desk", "Sales", "Support"]);
    expect(names((await admin.get(`/api/v1/workspaces/${t.workspace.id}/servers?q=s&sort=name&order=desc`)).body)).toEqual(["Support", "Sales", "Billing desk"]);

    for (const name of ["readers", "admins", "writers"]) await admin.post(`/api/v1/orgs/${t.org.id}/roles`, { name, tools: [] });
    expect(names((await admin.get(`/api/v1/orgs/${t.org.id}/roles?q=ers&sort=name`)).body)).toEqual(["readers", "writers"]);

    for (const name of ["Tone", "Escalation", "Greeting"]) await admin.post(`/api/v1/workspaces/${t.workspace.id}/skills`, { name, content: "Be kind." });
    expect(names((await admin.get(`/api/v1/workspaces/${t.workspace.id}/skills?sort=name`)).body)).toEqual(["Escalation", "Greeting", "Tone"]);
  });

  it("members: search by email or name, sort by email through the user", async () => {
    const t = await createTenant();
    const zed = await makeMember(t, { label: "zed", workspace: false });
    await makeMember(t, { label: "amy", workspace: false });
    const admin = api(t.admin.token);
    const byEmail = await admin.get(`/api/v1/orgs/${t.org.id}/members?sort=email`);
    const emails = byEmail.body.items.map((m: { email: string }) => m.email);
    expect(emails).toEqual([...emails].sort());
    expect(emails[0]).toBe(t.admin.user.email);
    const searched = await admin.get(`/api/v1/orgs/${t.org.id}/members?q=ZED`);
    expect(searched.body.items.map((m: { userId: string }) => m.userId)).toEqual([zed.id]);
    // Paging by email keeps every member exactly once.
    const p1 = await admin.get(`/api/v1/orgs/${t.org.id}/members?sort=email&order=desc&limit=3`);
    const p2 = await admin.get(`/api/v1/orgs/${t.org.id}/members?sort=email&order=desc&limit=3&cursor=${p1.body.nextCursor}`);
    expect([...p1.body.items, ...p2.body.items].map((m: { email: string }) => m.email)).toEqual([...emails].reverse());

    const ws = await admin.get(`/api/v1/workspaces/${t.workspace.id}/members?q=member&sort=email`);
    expect(ws.body.items.map((m: { userId: string }) => m.userId)).toEqual([t.member.user.id]);
  });

  it("API keys and files: search and sort", async () => {
    const t = await createTenant();
    const admin = api(t.admin.token);
    for (const name of ["dev-box-b", "CI runner", "dev-box-a"]) {
      expect((await admin.post(`/api/v1/workspaces/${t.workspace.id}/api-keys`, { name })).status).toBe(201);
    }
    // A hyphen never occurs in a key's prefix, which is searched too.
    const keys = await admin.get(`/api/v1/workspaces/${t.workspace.id}/api-keys?q=-BOX-&sort=name&order=desc`);
    expect(names(keys.body)).toEqual(["dev-box-b", "dev-box-a"]);
    const mine = await admin.get(`/api/v1/me/api-keys?q=runner`);
    expect(names(mine.body)).toEqual(["CI runner"]);

    useTempFilesDir();
    for (const [name, bytes] of [["notes.txt", "12345"], ["big notes.md", "1234567890"], ["photo.png", "1"]]) {
      expect((await upload(t.member.token, t.workspace.id, { bytes, name })).status).toBe(201);
    }
    const bySize = await api(t.member.token).get(`/api/v1/workspaces/${t.workspace.id}/files?q=NOTES&sort=size&order=desc`);
    expect(names(bySize.body)).toEqual(["big notes.md", "notes.txt"]);
  });

  it("workspaces: search by name or slug, sort by name both ways, page through a sorted search", async () => {
    const t = await createTenant();
    // The admin's browser session (its API key reaches one workspace only).
    const headers = await browserSessionOf(t.admin.user);
    const admin = { get: (path: string) => api(null).get(path, { headers }), post: (path: string, body: unknown) => api(null).post(path, body, { headers }) };
    for (const [name, slug] of [["Sales EU", "sales-eu"], ["Platform", "platform-core"], ["Sales US", "sales-us"]]) {
      expect((await admin.post(`/api/v1/orgs/${t.org.id}/workspaces`, { name, slug })).status).toBe(201);
    }
    const base = `/api/v1/orgs/${t.org.id}/workspaces`;
    expect(names((await admin.get(`${base}?q=SALES&sort=name&order=desc`)).body)).toEqual(["Sales US", "Sales EU"]);
    expect(names((await admin.get(`${base}?q=core`)).body)).toEqual(["Platform"]);
    const first = await admin.get(`${base}?q=s&sort=name&limit=1`);
    expect(names(first.body)).toEqual(["Sales EU"]);
    const second = await admin.get(`${base}?q=s&sort=name&limit=1&cursor=${first.body.nextCursor}`);
    expect(names(second.body)).toEqual(["Sales US"]);
    expect((await admin.get(`${base}?sort=secret`)).status).toBe(422);
    // A member lists only the workspaces it joined, whatever the search.
    expect(names((await api(null).get(`${base}?q=sales`, { headers: await browserSessionOf(t.member.user) })).body)).toEqual([]);
  });
});
