import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { GET as downloadRoute } from "@/app/api/v1/files/[fileId]/content/route";
import { api, request } from "@/tests/helpers/api";
import { createTenant, INSTANCE_KEY, type Tenant } from "@/tests/helpers/factories";
import { PNG_1X1, upload, useTempFilesDir } from "@/tests/helpers/files";

/**
 * Issue 5 "Files workspace": who sees, changes and deletes which file. Private means private
 * to the owner (org admins included); `workspace` files are seen by everyone who works in the
 * workspace; anything else is 404, exactly like a missing id.
 */

let dir: string;
beforeAll(() => {
  dir = useTempFilesDir();
});

async function uploaded(t: Tenant, who: "owner" | "admin" | "member", name: string, opts: { visibility?: string; tags?: string[]; bytes?: Buffer | string } = {}) {
  const res = await upload(t[who].token, t.workspace.id, { bytes: opts.bytes ?? `content of ${name}`, name, ...opts });
  expect(res.status).toBe(201);
  return res.body as { id: string; name: string; mimeType: string; size: number };
}

const listIds = async (token: string, t: Tenant, query = "") =>
  (await api(token).get(`/api/v1/workspaces/${t.workspace.id}/files${query}`)).body.items.map((f: { id: string }) => f.id).sort();

describe("visibility: private (the default) or workspace", () => {
  it("a user sees their own private files and the workspace's shared ones; org admins do not see others' private files", async () => {
    const t = await createTenant();
    const memberPrivate = await uploaded(t, "member", "mine.txt");
    const memberShared = await uploaded(t, "member", "ours.txt", { visibility: "workspace" });
    const adminPrivate = await uploaded(t, "admin", "admin.txt");

    expect(await listIds(t.member.token, t)).toEqual([memberPrivate.id, memberShared.id].sort());
    expect(await listIds(t.admin.token, t)).toEqual([memberShared.id, adminPrivate.id].sort());
    expect(await listIds(t.owner.token, t)).toEqual([memberShared.id]);
    expect(await listIds(INSTANCE_KEY, t)).toEqual([memberShared.id]);

    expect((await api(t.owner.token).get(`/api/v1/files/${memberPrivate.id}`)).status).toBe(404);
    expect((await api(t.owner.token).get(`/api/v1/files/${memberPrivate.id}/content`)).status).toBe(404);
    expect((await api(t.owner.token).get(`/api/v1/files/${memberShared.id}`)).body).toMatchObject({ id: memberShared.id, visibility: "workspace" });
  });

  it("another tenant's file, and another workspace's shared file, are 404 with the missing-id body", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const shared = await uploaded(t, "member", "ours.txt", { visibility: "workspace" });
    const missing = await api(other.owner.token).get(`/api/v1/files/fl_${"0".repeat(24)}`);
    for (const suffix of ["", "/content"]) {
      const res = await api(other.owner.token).get(`/api/v1/files/${shared.id}${suffix}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(missing.body);
    }
    expect((await api(other.owner.token).patch(`/api/v1/files/${shared.id}`, { name: "x" })).status).toBe(404);
    expect((await api(other.owner.token).delete(`/api/v1/files/${shared.id}`)).status).toBe(404);
    expect((await api(other.owner.token).get(`/api/v1/workspaces/${t.workspace.id}/files`)).status).toBe(404);
    expect(await db().file.findUnique({ where: { id: shared.id }, select: { name: true } })).toEqual({ name: "ours.txt" });
  });
});

describe("list: filters and pages", () => {
  it("?tag= and ?mimeType= narrow the list; pages carry a cursor", async () => {
    const t = await createTenant();
    const csv = await uploaded(t, "member", "a.csv", { bytes: "a,b\n", tags: ["sales", "q3"] });
    const png = await uploaded(t, "member", "b.png", { bytes: PNG_1X1, tags: ["q3"] });
    const md = await uploaded(t, "member", "c.md", { bytes: "# c" });

    expect(await listIds(t.member.token, t, "?tag=q3")).toEqual([csv.id, png.id].sort());
    expect(await listIds(t.member.token, t, "?tag=sales")).toEqual([csv.id]);
    expect(await listIds(t.member.token, t, "?mimeType=image/png")).toEqual([png.id]);
    expect(await listIds(t.member.token, t, "?tag=q3&mimeType=text/csv")).toEqual([csv.id]);

    const first = await api(t.member.token).get(`/api/v1/workspaces/${t.workspace.id}/files?limit=2`);
    expect(first.body.items).toHaveLength(2);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await api(t.member.token).get(`/api/v1/workspaces/${t.workspace.id}/files?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.nextCursor).toBeNull();
    const all = [...first.body.items, ...second.body.items].map((f: { id: string }) => f.id).sort();
    expect(all).toEqual([csv.id, png.id, md.id].sort());
    // Newest first.
    expect(first.body.items[0].id).toBe(md.id);
  });
});

describe("download: GET /files/{fileId}/content", () => {
  it("streams the exact bytes with Content-Type, Content-Length, attachment disposition and nosniff", async () => {
    const t = await createTenant();
    const png = await uploaded(t, "member", "Bilan trimestriel — été.png", { bytes: PNG_1X1 });
    const res = await downloadRoute(
      new Request(`http://localhost/api/v1/files/${png.id}/content`, { headers: { authorization: `Bearer ${t.member.token}` } }),
      { params: Promise.resolve({ fileId: png.id }) },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("content-length")).toBe(String(PNG_1X1.length));
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const disposition = res.headers.get("content-disposition")!;
    expect(disposition).toMatch(/^attachment; filename="Bilan trimestriel _ _t_\.png"; filename\*=UTF-8''/);
    expect(decodeURIComponent(disposition.split("UTF-8''")[1])).toBe("Bilan trimestriel — été.png");
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG_1X1)).toBe(true);
  });

  it("a quote or backslash in the name cannot break out of the header", async () => {
    const t = await createTenant();
    const file = await uploaded(t, "member", "plain.txt");
    expect((await api(t.member.token).patch(`/api/v1/files/${file.id}`, { name: 'a"b\\c.txt' })).status).toBe(200);
    const res = await api(t.member.token).get(`/api/v1/files/${file.id}/content`);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="a_b_c\.txt"; filename\*=UTF-8''a%22b%5Cc\.txt$/);
    expect(res.text).toBe("content of plain.txt");
  });
});

describe("change and delete", () => {
  it("the owner renames, retags and shares a file (audited); nobody else may change it (403 if they can see it)", async () => {
    const t = await createTenant();
    const file = await uploaded(t, "member", "draft.txt", { visibility: "workspace", tags: ["old"] });
    const res = await api(t.member.token).patch(`/api/v1/files/${file.id}`, { name: "final.txt", tags: ["new", "new", "q4"], visibility: "private" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: file.id, name: "final.txt", tags: ["new", "q4"], visibility: "private", mimeType: "text/plain" });
    expect(await db().auditEvent.count({ where: { orgId: t.org.id, action: "file.update", targetId: file.id } })).toBe(1);

    const shared = await uploaded(t, "member", "shared.txt", { visibility: "workspace" });
    expect((await api(t.admin.token).patch(`/api/v1/files/${shared.id}`, { name: "hijack.txt" })).status).toBe(403);
    expect((await api(t.owner.token).patch(`/api/v1/files/${file.id}`, { name: "hijack.txt" })).status).toBe(404);
    expect((await api(t.member.token).patch(`/api/v1/files/${file.id}`, { visibility: "public" })).status).toBe(422);
  });

  it("DELETE removes the row, then the blob; audited; the file is gone for everyone", async () => {
    const t = await createTenant();
    const file = await uploaded(t, "member", "gone.txt");
    const { storageKey } = await db().file.findUniqueOrThrow({ where: { id: file.id } });
    expect(fs.existsSync(path.join(dir, "blobs", storageKey))).toBe(true);

    expect((await api(t.member.token).delete(`/api/v1/files/${file.id}`)).status).toBe(204);
    expect(await db().file.count({ where: { id: file.id } })).toBe(0);
    expect(fs.existsSync(path.join(dir, "blobs", storageKey))).toBe(false);
    expect(await db().auditEvent.count({ where: { orgId: t.org.id, action: "file.delete", targetId: file.id } })).toBe(1);
    expect((await api(t.member.token).get(`/api/v1/files/${file.id}`)).status).toBe(404);
  });

  it("a workspace admin may delete a shared file but not another user's private one; a plain member neither", async () => {
    const t = await createTenant();
    const shared = await uploaded(t, "member", "shared.txt", { visibility: "workspace" });
    const sharedByAdmin = await uploaded(t, "admin", "admins.txt", { visibility: "workspace" });
    const secret = await uploaded(t, "member", "secret.txt");

    expect((await api(t.member.token).delete(`/api/v1/files/${sharedByAdmin.id}`)).status).toBe(403);
    expect((await api(t.admin.token).delete(`/api/v1/files/${secret.id}`)).status).toBe(404);
    expect((await api(t.admin.token).delete(`/api/v1/files/${shared.id}`)).status).toBe(204);
    expect(await db().file.count({ where: { id: { in: [sharedByAdmin.id, secret.id] } } })).toBe(2);
  });

  it("no credential → 401 on every file route", async () => {
    const t = await createTenant();
    const file = await uploaded(t, "member", "x.txt");
    for (const [method, suffix] of [["GET", ""], ["PATCH", ""], ["DELETE", ""], ["GET", "/content"]] as const) {
      expect((await request(method, `/api/v1/files/${file.id}${suffix}`, null, method === "PATCH" ? { name: "y" } : undefined)).status).toBe(401);
    }
  });
});
