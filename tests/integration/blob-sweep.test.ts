import { execFile } from "node:child_process";
import path from "node:path";
import { Readable } from "node:stream";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blobStore } from "@/lib/files/blob-store";
import { sweepOrphanBlobs } from "@/lib/files/sweep-orphan-blobs";
import { blobWorkerRunning, startBlobWorker } from "@/lib/files/run-blob-worker";
import { runShutdownHooks } from "@/lib/ops/shutdown";
import { db } from "@/lib/db/client";
import { api } from "@/tests/helpers/api";
import { blobExists, localStoreFixture, queuedDeletions, s3StoreFixture } from "@/tests/helpers/blob-stores";
import { createTenant, uniqueSuffix } from "@/tests/helpers/factories";
import { upload } from "@/tests/helpers/files";

/**
 * Issue 10: "a sweep removes blobs with no row older than an hour. Both stores (local, S3),
 * tested" — and the periodic worker that retries the deletion queue runs by itself in a server
 * process, stops on shutdown, and can be run on demand (`npm run blobs:clean`).
 */

const HOUR = 60 * 60 * 1000;
const run = promisify(execFile);
const TSX = path.join(process.cwd(), "node_modules", ".bin", "tsx");

/** A blob with no file row, as an upload that died before its commit leaves. */
async function orphan(): Promise<string> {
  return (await blobStore().put(Readable.from([`orphan ${uniqueSuffix()}`]))).key;
}

async function uploadedKey(token: string, workspaceId: string): Promise<{ id: string; key: string }> {
  const res = await upload(token, workspaceId, { bytes: `kept ${uniqueSuffix()}`, name: "kept.txt" });
  expect(res.status).toBe(201);
  const { storageKey } = await db().file.findUniqueOrThrow({ where: { id: res.body.id }, select: { storageKey: true } });
  return { id: res.body.id, key: storageKey };
}

describe.each([localStoreFixture(), s3StoreFixture()])("the orphan sweep ($name store)", (store) => {
  beforeAll(() => store.activate());
  afterAll(() => store.release());

  it("removes an orphan older than an hour, keeps a fresh one and every blob that has a row, however old", async () => {
    const t = await createTenant();
    const oldOrphan = await orphan();
    store.age(oldOrphan, 2 * HOUR);
    const freshOrphan = await orphan();
    store.age(freshOrphan, 50 * 60 * 1000);
    const file = await uploadedKey(t.member.token, t.workspace.id);
    store.age(file.key, 3 * HOUR);

    const result = await sweepOrphanBlobs();
    expect(result.listed).toBeGreaterThanOrEqual(3);
    expect(result.removed).toBeGreaterThanOrEqual(1);
    expect(await blobExists(oldOrphan)).toBe(false);
    expect(await blobExists(freshOrphan)).toBe(true);
    expect(await blobExists(file.key)).toBe(true);
    const content = await api(t.member.token).get(`/api/v1/files/${file.id}/content`);
    expect(content.status).toBe(200);
    expect(content.text).toMatch(/^kept /);
  });
});

describe("the blob worker", () => {
  const store = localStoreFixture();
  beforeAll(() => store.activate());
  afterAll(() => store.release());

  it("retries queued deletions by itself in the server process, and stops on shutdown", async () => {
    const t = await createTenant();
    const file = await uploadedKey(t.member.token, t.workspace.id);
    // Committed without the after-commit step, as a process dying right after the commit leaves it.
    await db().file.delete({ where: { id: file.id, orgId: t.org.id } });
    expect(await queuedDeletions([file.key])).toBe(1);

    startBlobWorker({ intervalMs: 50 });
    expect(blobWorkerRunning()).toBe(true);
    await expect.poll(() => blobExists(file.key), { timeout: 10_000, interval: 50 }).toBe(false);
    expect(await queuedDeletions([file.key])).toBe(0);

    await runShutdownHooks();
    expect(blobWorkerRunning()).toBe(false);
  });

  it("npm run blobs:clean -- --help explains itself; the script retries the queue and sweeps, on demand", async () => {
    const help = await run(TSX, ["scripts/clean-blobs.ts", "--help"]);
    expect(help.stdout).toContain("Usage: npm run blobs:clean");
    expect(help.stdout).toContain("--sweep-only");

    const t = await createTenant();
    const file = await uploadedKey(t.member.token, t.workspace.id);
    // A deletion whose first attempt failed: queued with a retry an hour away.
    await db().file.delete({ where: { id: file.id, orgId: t.org.id } });
    await db().blobDeletion.update({ where: { storageKey: file.key }, data: { attempts: 7, nextAttemptAt: new Date(Date.now() + HOUR) } });
    const oldOrphan = await orphan();
    store.age(oldOrphan, 2 * HOUR);

    const out = await run(TSX, ["scripts/clean-blobs.ts"], { env: { ...process.env } });
    expect(out.stdout).toMatch(/Queued deletions: [1-9]\d* blob\(s\) deleted, 0 failed/);
    expect(out.stdout).toMatch(/Sweep: \d+ blob\(s\) listed, [1-9]\d* orphan\(s\) removed/);
    expect(await blobExists(file.key)).toBe(false);
    expect(await queuedDeletions([file.key])).toBe(0);
    expect(await blobExists(oldOrphan)).toBe(false);
  });
});
