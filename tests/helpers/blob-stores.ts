import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { vi } from "vitest";
import { BlobNotFoundError, blobStore } from "@/lib/files/blob-store";
import { db } from "@/lib/db/client";

/**
 * The two blob stores as test fixtures: the process's blob store (`blobStore()`) is switched to
 * a fresh local directory, or to a bucket of s3rver (a real S3-speaking server on 127.0.0.1),
 * between `activate` and `release`, so the same test runs against both.
 */
export interface StoreFixture {
  name: string;
  activate(): Promise<void>;
  release(): Promise<void>;
  /** Pretends the blob was last written `ms` ago (the sweep judges age by it). */
  age(key: string, ms: number): void;
}

const BUCKET = "switchboard-files";

function touch(file: string, ms: number): void {
  const then = new Date(Date.now() - ms);
  fs.utimesSync(file, then, then);
}

export function localStoreFixture(): StoreFixture {
  let dir = "";
  let previous: string | undefined;
  return {
    name: "local",
    async activate() {
      previous = process.env.SWITCHBOARD_FILES_DIR;
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-files-"));
      // An empty directory per run: what the test finds there is what it wrote.
      process.env.SWITCHBOARD_FILES_DIR = dir;
    },
    async release() {
      // Put back what the test process had.
      if (previous === undefined) delete process.env.SWITCHBOARD_FILES_DIR;
      else process.env.SWITCHBOARD_FILES_DIR = previous;
    },
    age: (key, ms) => touch(path.join(dir, "blobs", key), ms),
  };
}

export function s3StoreFixture(): StoreFixture {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-s3rver-"));
  const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: dir, configureBuckets: [{ name: BUCKET, configs: [] }] });
  return {
    name: "S3",
    async activate() {
      const { port } = await server.run();
      // The S3 store, on the local S3 server (a default install stores files on disk).
      const env = { S3_BUCKET: BUCKET, S3_ENDPOINT: `http://127.0.0.1:${port}`, S3_REGION: "us-east-1", S3_ACCESS_KEY_ID: "S3RVER", S3_SECRET_ACCESS_KEY: "S3RVER" };
      for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v);
    },
    async release() {
      vi.unstubAllEnvs();
      await server.close();
    },
    // s3rver reports an object's LastModified from its file's mtime.
    age: (key, ms) => touch(path.join(dir, BUCKET, "files", `${key}._S3rver_object`), ms),
  };
}

/** Is a blob stored under this key in the process's current store? */
export async function blobExists(key: string): Promise<boolean> {
  try {
    (await blobStore().get(key)).destroy();
    return true;
  } catch (e) {
    if (e instanceof BlobNotFoundError) return false;
    throw e;
  }
}

/** How many of these keys are waiting in the blob deletion queue. */
export function queuedDeletions(keys: string[]): Promise<number> {
  return db().blobDeletion.count({ where: { storageKey: { in: keys } } });
}
