import { beforeAll, describe, expect, it } from "vitest";
import { api } from "@/tests/helpers/api";
import { createTenant, INSTANCE_KEY, makeMember, makeRole } from "@/tests/helpers/factories";
import { upload, useTempFilesDir } from "@/tests/helpers/files";

/**
 * A list's cursor names a row of that list. Prisma positions a cursor by looking the row up
 * without the list's `where`, so another tenant's id used to work as an anchor: the answer
 * differed from a missing id's (it revealed that the id exists and where it sorts).
 */

beforeAll(() => {
  useTempFilesDir();
});

describe("a cursor that is not in the caller's own list answers like a missing one", () => {
  it("id-ordered lists (roles): another organization's role id is no anchor", async () => {
    const other = await createTenant();
    const foreign = await makeRole(other, { name: "theirs" });
    const t = await createTenant();
    // Created after the foreign row: their ids sort after it.
    for (const name of ["a", "b", "c"]) await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/roles`, { name, tools: [] });
    const path = (cursor: string) => `/api/v1/orgs/${t.org.id}/roles?limit=2&cursor=${cursor}`;

    const withForeign = await api(t.admin.token).get(path(foreign.id));
    const withMissing = await api(t.admin.token).get(path(`${foreign.id}x`));
    expect(withMissing.status).toBe(200);
    expect(withForeign.status).toBe(withMissing.status);
    expect(withForeign.body).toEqual(withMissing.body);
    expect(withForeign.body).toEqual({ items: [], nextCursor: null });

    // The caller's own cursors still page through the whole list.
    const first = await api(t.admin.token).get(`/api/v1/orgs/${t.org.id}/roles?limit=2`);
    const second = await api(t.admin.token).get(path(first.body.nextCursor));
    expect([...first.body.items, ...second.body.items].map((r: { name: string }) => r.name)).toEqual(["a", "b", "c"]);
    expect(second.body.nextCursor).toBeNull();
  });

  it("lists sorted by time (files): another workspace's file id is no anchor, nor another user's private file", async () => {
    const t = await createTenant();
    await upload(t.member.token, t.workspace.id, { bytes: "mine 1", name: "one.txt" });
    await upload(t.member.token, t.workspace.id, { bytes: "mine 2", name: "two.txt" });
    const other = await createTenant();
    const theirs = await upload(other.member.token, other.workspace.id, { bytes: "theirs", name: "theirs.txt" });
    const privateOfAdmin = await upload(t.admin.token, t.workspace.id, { bytes: "admin's own", name: "private.txt" });
    expect(theirs.status).toBe(201);
    expect(privateOfAdmin.status).toBe(201);
    const path = (cursor: string) => `/api/v1/workspaces/${t.workspace.id}/files?cursor=${cursor}`;

    const missing = await api(t.member.token).get(path("fl_000000000000000000000000"));
    expect(missing.body).toEqual({ items: [], nextCursor: null });
    expect((await api(t.member.token).get(path(theirs.body.id))).body).toEqual(missing.body);
    expect((await api(t.member.token).get(path(privateOfAdmin.body.id))).body).toEqual(missing.body);
  });

  it("organizations: an organization the caller is not in is no anchor", async () => {
    const hidden = await createTenant();
    const t = await createTenant();
    const mine = await api(INSTANCE_KEY).post("/api/v1/orgs", { name: "Later", slug: `later-${t.org.slug}` });
    await makeMember({ orgId: mine.body.id }, { user: t.member.user, role: "member", workspace: false });
    const session = t.member.token; // key of t's org: sees t's org only
    const withForeign = await api(session).get(`/api/v1/orgs?cursor=${hidden.org.id}`);
    const withMissing = await api(session).get(`/api/v1/orgs?cursor=${hidden.org.id}x`);
    expect(withForeign.body).toEqual(withMissing.body);
    expect(withForeign.body).toEqual({ items: [], nextCursor: null });
  });

  it("a cursor longer than any id is a validation error, not a query", async () => {
    const t = await createTenant();
    const res = await api(t.admin.token).get(`/api/v1/orgs/${t.org.id}/roles?cursor=${"x".repeat(129)}`);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ path: "cursor" })]);
  });
});
