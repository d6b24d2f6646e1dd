import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import S3rver from "s3rver";
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { BlobNotFoundError, type BlobStore, blobStore } from "@/lib/files/blob-store";
import { db } from "@/lib/db/client";
import { api } from "@/tests/helpers/api";
import { createTenant } from "@/tests/helpers/factories";
import { PNG_1X1, upload } from "@/tests/helpers/files";
import { LocalBlobStore } from "@/lib/files/local-blob-store";
import { S3BlobStore, s3ConfigFromEnv } from "@/lib/files/s3-blob-store";
import { sha256 } from "@/tests/helpers/files";

/**
 * Issue 5 "Storage: streamed to a blob store … Local directory by default; an S3-compatible
 * store when S3_* is set": both stores behave the same — size and sha256 known when `put`
 * resolves, a failed stream leaves nothing, get and delete by key. The S3 store runs against
 * s3rver, a real S3-speaking server on 127.0.0.1.
 */

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** A stream that yields some bytes, then fails like a client that went away. */
function failingSource(bytes: number): Readable {
  return Readable.from((async function* () {
    yield randomBytes(bytes);
    throw new Error("client went away");
  })());
}

function contractTests(name: string, make: () => BlobStore, stored: () => Promise<string[]>) {
  describe(`${name} blob store`, () => {
    it("put streams the bytes and reports their size and sha256; get returns them; delete removes them", async () => {
      const store = make();
      const bytes = randomBytes(300 * 1024);
      const blob = await store.put(Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]));
      expect(blob).toMatchObject({ size: bytes.length, sha256: sha256(bytes) });
      expect((await readAll(await store.get(blob.key))).equals(bytes)).toBe(true);
      await store.delete(blob.key);
      await expect(store.get(blob.key)).rejects.toBeInstanceOf(BlobNotFoundError);
      await store.delete(blob.key); // deleting twice is fine
    });

    it("a source that fails mid-way rejects put and leaves nothing stored", async () => {
      const store = make();
      const before = await stored();
      await expect(store.put(failingSource(64 * 1024))).rejects.toThrow("client went away");
      expect(await stored()).toEqual(before);
    });

    it("an empty file is a blob of size 0", async () => {
      const store = make();
      const blob = await store.put(Readable.from([]));
      expect(blob).toMatchObject({ size: 0, sha256: sha256("") });
      expect((await readAll(await store.get(blob.key))).length).toBe(0);
    });
  });
}

const localDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-blobs-"));
const listDir = (d: string) => (fs.existsSync(d) ? fs.readdirSync(d).sort() : []);
contractTests("local", () => new LocalBlobStore(localDir), async () => [...listDir(path.join(localDir, "blobs")), ...listDir(path.join(localDir, "tmp"))]);

describe("local blob store specifics", () => {
  it("a key that is not one of ours never becomes a path", async () => {
    const store = new LocalBlobStore(localDir);
    await expect(store.get("../../etc/passwd")).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it("temp files of uploads that died with their process are swept", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-blobs-"));
    fs.mkdirSync(path.join(dir, "tmp"), { recursive: true });
    const stale = path.join(dir, "tmp", "dead.part");
    fs.writeFileSync(stale, "half");
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
    fs.utimesSync(stale, old, old);
    fs.writeFileSync(path.join(dir, "tmp", "live.part"), "in progress");
    await new LocalBlobStore(dir).put(Readable.from(["x"]));
    expect(listDir(path.join(dir, "tmp"))).toEqual(["live.part"]);
  });
});

const s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-s3rver-"));
const s3rver = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: s3Dir, configureBuckets: [{ name: "switchboard-files", configs: [] }] });
let s3Endpoint = "";
beforeAll(async () => {
  const { port } = await s3rver.run();
  s3Endpoint = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await s3rver.close();
});

// The S3 store's settings, pointing at the local S3 server (the default is the disk store).
const s3Env = () => ({ S3_BUCKET: "switchboard-files", S3_ENDPOINT: s3Endpoint, S3_REGION: "us-east-1", S3_ACCESS_KEY_ID: "S3RVER", S3_SECRET_ACCESS_KEY: "S3RVER" });
const makeS3 = () => new S3BlobStore(s3ConfigFromEnv(s3Env())!);
contractTests("S3", makeS3, async () => {
  const out = await makeS3().client.send(new ListObjectsV2Command({ Bucket: "switchboard-files" }));
  return (out.Contents ?? []).map((o) => o.Key!).sort();
});

describe("S3 configuration", () => {
  it("S3_BUCKET selects the S3 store; an endpoint implies path-style addressing", () => {
    expect(s3ConfigFromEnv({})).toBeNull();
    expect(s3ConfigFromEnv(s3Env())).toMatchObject({ bucket: "switchboard-files", endpoint: s3Endpoint, forcePathStyle: true, accessKeyId: "S3RVER" });
    // A bucket alone: every other S3 setting at its default.
    expect(s3ConfigFromEnv({ S3_BUCKET: "b" })).toMatchObject({ bucket: "b", endpoint: undefined, forcePathStyle: false, region: "us-east-1" });
  });

  it("a multipart-sized upload (more than one 8 MiB part) round-trips", async () => {
    const store = makeS3();
    const bytes = randomBytes(9 * 1024 * 1024);
    const blob = await store.put(Readable.from([bytes]));
    expect(blob).toMatchObject({ size: bytes.length, sha256: sha256(bytes) });
    expect(sha256(await readAll(await store.get(blob.key)))).toBe(sha256(bytes));
    await store.delete(blob.key);
  });
});

describe("the files API on the S3 store", () => {
  it("with S3_* set, an upload lands in the bucket, downloads back byte for byte, and DELETE removes the object", async () => {
    for (const [k, v] of Object.entries(s3Env())) vi.stubEnv(k, v);
    try {
      expect(blobStore()).toBeInstanceOf(S3BlobStore);
      const t = await createTenant();
      const res = await upload(t.member.token, t.workspace.id, { bytes: PNG_1X1, name: "pixel.png" });
      expect(res.status).toBe(201);
      const { storageKey } = await db().file.findUniqueOrThrow({ where: { id: res.body.id } });
      const keys = async () => ((await makeS3().client.send(new ListObjectsV2Command({ Bucket: "switchboard-files" }))).Contents ?? []).map((o) => o.Key);
      expect(await keys()).toContain(`files/${storageKey}`);
      expect((await readAll(await makeS3().get(storageKey))).equals(PNG_1X1)).toBe(true);
      expect((await api(t.member.token).delete(`/api/v1/files/${res.body.id}`)).status).toBe(204);
      expect(await keys()).not.toContain(`files/${storageKey}`);
    } finally {
      vi.unstubAllEnvs();
    }
    expect(blobStore()).toBeInstanceOf(LocalBlobStore);
  });
});
