import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { uploadFile } from "@/lib/files/upload";
import { api, request } from "@/tests/helpers/api";
import { createTenant, INSTANCE_KEY } from "@/tests/helpers/factories";
import { filesOnDisk, PNG_1X1, sha256, upload, uploadForm, useTempFilesDir } from "@/tests/helpers/files";

/** Issue 5 "Files workspace" through the JSON API (ADMIN_API.md "files"): upload, limits, storage. */

let dir: string;
beforeAll(() => {
  dir = useTempFilesDir();
});
afterEach(() => {
  vi.unstubAllEnvs();
});

const filesPath = (workspaceId: string) => `/api/v1/workspaces/${workspaceId}/files`;

describe("upload: streamed to the blob store, row committed with its sha256 and size", () => {
  it("answers 201 with { id, uri, name, mimeType, size, sha256, tags, visibility } and stores exactly the bytes", async () => {
    const t = await createTenant();
    const csv = "region,revenue\nnorth,10\nsouth,20\n";
    const res = await upload(t.member.token, t.workspace.id, { bytes: csv, name: "sales.csv", type: "application/pdf", tags: ["q3", "sales", "q3"] });

    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      uri: `files://${res.body.id}`,
      name: "sales.csv",
      mimeType: "text/csv",
      size: Buffer.byteLength(csv),
      sha256: sha256(csv),
      tags: ["q3", "sales"],
      visibility: "private",
      ownerId: t.member.user.id,
    });
    expect(res.body.id).toMatch(/^fl_[0-9a-f]{24}$/);
    const row = await db().file.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row).toMatchObject({ workspaceId: t.workspace.id, orgId: t.org.id, size: Buffer.byteLength(csv) });
    expect(fs.readFileSync(path.join(dir, "blobs", row.storageKey), "utf8")).toBe(csv);
    const audit = await db().auditEvent.findFirst({ where: { orgId: t.org.id, action: "file.upload", targetId: row.id } });
    expect(audit).toMatchObject({ actorId: t.member.user.id, workspaceId: t.workspace.id });
  });

  it("takes visibility=workspace and fields after the file part", async () => {
    const t = await createTenant();
    const form = new FormData();
    form.append("file", new Blob(["hello"]), "hello.txt");
    form.append("visibility", "workspace");
    form.append("tags", "late");
    const res = await api(t.member.token).post(filesPath(t.workspace.id), undefined, { raw: form });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ visibility: "workspace", tags: ["late"], mimeType: "text/plain" });
  });

  it("keeps only the base name of the part's filename", async () => {
    const t = await createTenant();
    const res = await upload(t.member.token, t.workspace.id, { bytes: "x", name: "../../etc/passwd.txt" });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe("passwd.txt");
  });
});

describe("MIME type sniffed from the content, with the name as a hint", () => {
  const cases: Array<[string, Buffer | string, string, string]> = [
    ["a PNG named .txt is an image (content wins over the name)", PNG_1X1, "photo.txt", "image/png"],
    ["a PDF", Buffer.from("%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n"), "contract", "application/pdf"],
    ["JSON text by its extension", '{"a":1}', "data.json", "application/json"],
    ["Markdown text by its extension", "# Title\n", "notes.md", "text/markdown"],
    ["CSV text by its extension", "a,b\n1,2\n", "t.csv", "text/csv"],
    ["UTF-8 text with an unknown extension is text/plain", "héllo wörld", "readme.unknownext", "text/plain"],
    ["binary without a signature is application/octet-stream", Buffer.from([0x01, 0x80, 0x00, 0x9c, 0xc3, 0x28, 0x07]), "blob.bin", "application/octet-stream"],
  ];
  for (const [label, bytes, name, mimeType] of cases) {
    it(label, async () => {
      const t = await createTenant();
      const res = await upload(t.member.token, t.workspace.id, { bytes, name, type: "text/html" });
      expect(res.status).toBe(201);
      expect(res.body.mimeType).toBe(mimeType);
      expect(res.body.sha256).toBe(sha256(bytes));
    });
  }
});

describe("upload limits: MAX_UPLOAD_BYTES and the workspace quota give a clear 413 and leave nothing behind", () => {
  async function expectNothingLeft(t: { workspace: { id: string } }, diskBefore: string[]) {
    expect(await db().file.count({ where: { workspaceId: t.workspace.id } })).toBe(0);
    expect(filesOnDisk(dir).sort()).toEqual(diskBefore.sort());
  }

  it("a file past MAX_UPLOAD_BYTES is refused while it streams (413), with no row and no blob or temp file", async () => {
    // A 1000-byte limit (default 50 MiB) so small bodies reach it.
    vi.stubEnv("MAX_UPLOAD_BYTES", "1000");
    const t = await createTenant();
    const before = filesOnDisk(dir);
    const res = await upload(t.member.token, t.workspace.id, { bytes: randomBytes(5000), name: "big.bin" });
    expect(res.status).toBe(413);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    expect(res.body.detail).toBe("The file is larger than the upload limit of 1000 bytes.");
    await expectNothingLeft(t, before);
  });

  it("a much larger file without a declared length is cut off while streaming, no temp file survives", async () => {
    // A 1000-byte limit (default 50 MiB) so small bodies reach it.
    vi.stubEnv("MAX_UPLOAD_BYTES", "1000");
    const t = await createTenant();
    const before = filesOnDisk(dir);
    const res = await upload(t.member.token, t.workspace.id, { bytes: randomBytes(400 * 1024), name: "huge.bin" });
    expect(res.status).toBe(413);
    await expectNothingLeft(t, before);
  });

  it("a request whose declared length is far past the limit is refused before it is read", async () => {
    // A 1000-byte limit (default 50 MiB) so small bodies reach it.
    vi.stubEnv("MAX_UPLOAD_BYTES", "1000");
    const t = await createTenant();
    const before = filesOnDisk(dir);
    const form = uploadForm({ bytes: "small", name: "huge.bin" });
    const headers = { "content-length": String(10 * 1024 * 1024) };
    const res = await api(t.member.token).post(filesPath(t.workspace.id), undefined, { raw: form, headers });
    expect(res.status).toBe(413);
    await expectNothingLeft(t, before);
  });

  it("exactly MAX_UPLOAD_BYTES is accepted", async () => {
    // A 1000-byte limit (default 50 MiB) so small bodies reach it.
    vi.stubEnv("MAX_UPLOAD_BYTES", "1000");
    const t = await createTenant();
    const res = await upload(t.member.token, t.workspace.id, { bytes: randomBytes(1000), name: "edge.bin" });
    expect(res.status).toBe(201);
    expect(res.body.size).toBe(1000);
  });

  it("WORKSPACE_QUOTA_BYTES: an upload that would pass the workspace's quota gets 413 saying the quota is full", async () => {
    // A 3000-byte quota (default 1 GiB) so two small uploads fill it.
    vi.stubEnv("WORKSPACE_QUOTA_BYTES", "3000");
    const t = await createTenant();
    expect((await upload(t.member.token, t.workspace.id, { bytes: randomBytes(2000), name: "one.bin" })).status).toBe(201);
    const before = filesOnDisk(dir);
    const res = await upload(t.owner.token, t.workspace.id, { bytes: randomBytes(2000), name: "two.bin" });
    expect(res.status).toBe(413);
    expect(res.body.detail).toContain("quota");
    expect(res.body.detail).toBe("The workspace's storage quota is full: 1000 bytes of 2.9 KB are left. Delete files to make room.");
    expect(await db().file.count({ where: { workspaceId: t.workspace.id } })).toBe(1);
    expect(filesOnDisk(dir).sort()).toEqual(before.sort());
    // Other workspaces have their own quota.
    const other = await createTenant();
    expect((await upload(other.member.token, other.workspace.id, { bytes: randomBytes(2000), name: "x.bin" })).status).toBe(201);
  });

  it("deleting files frees quota", async () => {
    // A 3000-byte quota (default 1 GiB) so two small uploads fill it.
    vi.stubEnv("WORKSPACE_QUOTA_BYTES", "3000");
    const t = await createTenant();
    const first = await upload(t.member.token, t.workspace.id, { bytes: randomBytes(2000), name: "one.bin" });
    expect((await api(t.member.token).delete(`/api/v1/files/${first.body.id}`)).status).toBe(204);
    expect((await upload(t.member.token, t.workspace.id, { bytes: randomBytes(2000), name: "two.bin" })).status).toBe(201);
  });
});

describe("malformed uploads", () => {
  it("no `file` part → 422; a bad visibility → 422 and the stored blob is removed; not multipart → 415", async () => {
    const t = await createTenant();
    const path_ = filesPath(t.workspace.id);
    const noFile = new FormData();
    noFile.append("tags", "x");
    const missing = await api(t.member.token).post(path_, undefined, { raw: noFile });
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0].path).toBe("file");

    const before = filesOnDisk(dir);
    const bad = await api(t.member.token).post(path_, undefined, { raw: uploadForm({ bytes: "x", name: "a.txt", visibility: "public" }) });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].path).toBe("visibility");
    expect(filesOnDisk(dir).sort()).toEqual(before.sort());

    const json = await api(t.member.token).post(path_, { file: "x" });
    expect(json.status).toBe(415);
    expect(await db().file.count({ where: { workspaceId: t.workspace.id } })).toBe(0);
  });

  it("two file parts → 422, nothing kept", async () => {
    const t = await createTenant();
    const form = uploadForm({ bytes: "one", name: "one.txt" });
    form.append("file", new Blob(["two"]), "two.txt");
    const before = filesOnDisk(dir);
    const res = await api(t.member.token).post(filesPath(t.workspace.id), undefined, { raw: form });
    expect(res.status).toBe(422);
    expect(await db().file.count({ where: { workspaceId: t.workspace.id } })).toBe(0);
    expect(filesOnDisk(dir).sort()).toEqual(before.sort());
  });

  it("the instance credential cannot upload (files belong to a user): 403", async () => {
    const t = await createTenant();
    const res = await upload(INSTANCE_KEY, t.workspace.id, { bytes: "x", name: "a.txt" });
    expect(res.status).toBe(403);
  });

  it("no credential → 401; a workspace the caller does not work in → 404, nothing stored", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const before = filesOnDisk(dir);
    expect((await request("POST", filesPath(t.workspace.id), null, undefined, { raw: uploadForm({ bytes: "x", name: "a.txt" }) })).status).toBe(401);
    expect((await upload(other.owner.token, t.workspace.id, { bytes: "x", name: "a.txt" })).status).toBe(404);
    expect(filesOnDisk(dir).sort()).toEqual(before.sort());
  });
});

describe("an interrupted upload leaves nothing visible and no orphan blob", () => {
  it("the client goes away mid-file: the upload fails, no row, no blob, no temp file", async () => {
    const t = await createTenant();
    const boundary = "----switchboard-test";
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    async function* body() {
      yield Buffer.from(head);
      yield randomBytes(64 * 1024);
      throw new Error("client disconnected");
    }
    const before = filesOnDisk(dir);
    const caller = { kind: "user" as const, userId: t.member.user.id, apiKey: null };
    const attempt = uploadFile(caller, t.workspace.id, { body: Readable.from(body()), contentType: `multipart/form-data; boundary=${boundary}`, contentLength: null });
    await expect(attempt).rejects.toMatchObject({ code: "bad_request", message: expect.stringContaining("interrupted") });
    expect(await db().file.count({ where: { workspaceId: t.workspace.id } })).toBe(0);
    expect(filesOnDisk(dir).sort()).toEqual(before.sort());
  });

  it("a body that ends before the closing boundary is refused (400) and leaves nothing", async () => {
    const t = await createTenant();
    const boundary = "----switchboard-test";
    const truncated = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.txt"\r\n\r\nhalf a fi`;
    const before = filesOnDisk(dir);
    const res = await api(t.member.token).post(filesPath(t.workspace.id), undefined, {
      raw: truncated,
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    });
    expect(res.status).toBe(400);
    expect(await db().file.count({ where: { workspaceId: t.workspace.id } })).toBe(0);
    expect(filesOnDisk(dir).sort()).toEqual(before.sort());
  });
});
