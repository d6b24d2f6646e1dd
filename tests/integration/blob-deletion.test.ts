import { execFile } from "node:child_process";
import path from "node:path";
import { Readable } from "node:stream";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { blobStore } from "@/lib/files/blob-store";
import { processBlobDeletions } from "@/lib/files/delete-queued-blobs";
import { sweepOrphanBlobs } from "@/lib/files/sweep-orphan-blobs";
import { blobWorkerRunning, startBlobWorker } from "@/lib/files/run-blob-worker";
import { runShutdownHooks } from "@/lib/ops/shutdown";
import { db } from "@/lib/db/client";
import { api } from "@/tests/helpers/api";
import { blobExists, localStoreFixture, queuedDeletions, s3StoreFixture } from "@/tests/helpers/blob-stores";
import { createApiKeyFor, createTenant, createWorkspace, makeWorkspaceMember, uniqueSuffix } from "@/tests/helpers/factories";
import { upload } from "@/tests/helpers/files";

/**
 * Issue 10: "Deleting a file, a workspace or an organization deletes its blobs. … Delete blobs
 * after the database commit through a durable queue that is retried, so a crash between the two
 * leaves nothing behind for good; a sweep removes blobs with no row older than an hour. Both
 * stores (local, S3), tested." Each case runs on the local store and on S3 (s3rver).
 *
 * One file on purpose: the queue is shared by the whole database, and a worker pass run by a
 * file in parallel (with its own store) would take this file's rows from under it.
 */

async function uploaded(token: string, workspaceId: string, visibility = "private"): Promise<{ id: string; key: string }> {
  const res = await upload(token, workspaceId, { bytes: `private text ${uniqueSuffix()}`, name: "notes.txt", visibility });
  expect(res.status).toBe(201);
  const { storageKey } = await db().file.findUniqueOrThrow({ where: { id: res.body.id }, select: { storageKey: true } });
  expect(await blobExists(storageKey)).toBe(true);
  return { id: res.body.id, key: storageKey };
}

/** A second workspace of the tenant's org, with the member in it and a key to upload there. */
async function secondWorkspace(t: Awaited<ReturnType<typeof createTenant>>): Promise<{ id: string; token: string }> {
  const ws = await createWorkspace(t.org.id);
  await makeWorkspaceMember({ orgId: t.org.id, workspaceId: ws.id }, { id: t.member.user.id });
  const { token } = await createApiKeyFor(t.member.user, { id: ws.id, orgId: t.org.id });
  return { id: ws.id, token };
}

const SECOND = 1000;
const HOUR = 60 * 60 * SECOND;
const run = promisify(execFile);
const TSX = path.join(process.cwd(), "node_modules", ".bin", "tsx");

/** A blob with no file row, as an upload that died before its commit leaves. */
async function orphan(): Promise<string> {
  return (await blobStore().put(Readable.from([`orphan ${uniqueSuffix()}`]))).key;
}

describe.each([localStoreFixture(), s3StoreFixture()])("deleting deletes the blobs ($name store)", (store) => {
  beforeAll(() => store.activate());
  afterAll(() => store.release());
  afterEach(() => vi.restoreAllMocks());

  it("DELETE /files/{id} removes the file's blob and leaves nothing queued", async () => {
    const t = await createTenant();
    const file = await uploaded(t.member.token, t.workspace.id);
    expect((await api(t.member.token).delete(`/api/v1/files/${file.id}`)).status).toBe(204);
    expect(await blobExists(file.key)).toBe(false);
    expect(await queuedDeletions([file.key])).toBe(0);
  });

  it("DELETE /workspaces/{id} removes the blobs of every file in it, whoever owned them; another workspace keeps its own", async () => {
    const t = await createTenant();
    const other = await secondWorkspace(t);
    const gone = [await uploaded(t.member.token, t.workspace.id), await uploaded(t.admin.token, t.workspace.id, "workspace"), await uploaded(t.owner.token, t.workspace.id)];
    const kept = await uploaded(other.token, other.id);
    expect((await api(t.admin.token).delete(`/api/v1/workspaces/${t.workspace.id}`)).status).toBe(204);
    for (const file of gone) expect(await blobExists(file.key)).toBe(false);
    expect(await queuedDeletions(gone.map((f) => f.key))).toBe(0);
    expect(await blobExists(kept.key)).toBe(true);
    expect((await api(other.token).get(`/api/v1/files/${kept.id}/content`)).status).toBe(200);
  });

  it("DELETE /orgs/{id} removes the blobs of every workspace of the organization; another organization's stay", async () => {
    const t = await createTenant();
    const other = await secondWorkspace(t);
    const gone = [await uploaded(t.member.token, t.workspace.id), await uploaded(t.admin.token, t.workspace.id, "workspace"), await uploaded(other.token, other.id)];
    const stranger = await createTenant();
    const kept = await uploaded(stranger.member.token, stranger.workspace.id);
    expect((await api(t.owner.token).delete(`/api/v1/orgs/${t.org.id}`)).status).toBe(204);
    for (const file of gone) expect(await blobExists(file.key)).toBe(false);
    expect(await queuedDeletions(gone.map((f) => f.key))).toBe(0);
    expect(await blobExists(kept.key)).toBe(true);
  });

  it("a crash between the commit and the store delete leaves the blobs queued, and the worker removes them", async () => {
    const t = await createTenant();
    const other = await secondWorkspace(t);
    const single = await uploaded(t.member.token, t.workspace.id);
    const inOrg = [await uploaded(t.admin.token, t.workspace.id), await uploaded(other.token, other.id)];
    // The deletions commit, and the process dies before it reaches the store: no after-commit step runs.
    await db().file.delete({ where: { id: single.id, orgId: t.org.id } });
    await db().organization.delete({ where: { id: t.org.id } });
    const keys = [single.key, ...inOrg.map((f) => f.key)];
    for (const key of keys) expect(await blobExists(key)).toBe(true);
    expect(await queuedDeletions(keys)).toBe(3);

    await processBlobDeletions();
    for (const key of keys) expect(await blobExists(key)).toBe(false);
    expect(await queuedDeletions(keys)).toBe(0);
  });

  it("a store that fails keeps the deletion queued and retries it with growing backoff until the store confirms", async () => {
    const t = await createTenant();
    const file = await uploaded(t.member.token, t.workspace.id);
    const spy = vi.spyOn(blobStore(), "delete").mockRejectedValueOnce(new Error("store unavailable"));
    const t0 = Date.now();
    expect((await api(t.member.token).delete(`/api/v1/files/${file.id}`)).status).toBe(204);
    expect(spy).toHaveBeenCalledWith(file.key);
    expect((await api(t.member.token).get(`/api/v1/files/${file.id}`)).status).toBe(404);
    const first = await db().blobDeletion.findUniqueOrThrow({ where: { storageKey: file.key } });
    expect(first).toMatchObject({ attempts: 1, lastError: expect.stringContaining("store unavailable") });
    expect(first.nextAttemptAt.getTime() - t0).toBeGreaterThanOrEqual(29 * SECOND);
    expect(first.nextAttemptAt.getTime() - t0).toBeLessThan(40 * SECOND);

    // Not due yet: the worker leaves it alone.
    await processBlobDeletions();
    expect(await blobExists(file.key)).toBe(true);

    // Due, and the store fails again: the next retry waits twice as long.
    spy.mockRejectedValueOnce(new Error("still unavailable"));
    const retry = new Date(first.nextAttemptAt.getTime() + SECOND);
    await processBlobDeletions({ now: retry });
    const second = await db().blobDeletion.findUniqueOrThrow({ where: { storageKey: file.key } });
    expect(second).toMatchObject({ attempts: 2, lastError: expect.stringContaining("still unavailable") });
    expect(second.nextAttemptAt.getTime() - retry.getTime()).toBe(60 * SECOND);
    expect(await blobExists(file.key)).toBe(true);

    // The store is back: the blob goes, and only then its queue row.
    await processBlobDeletions({ now: new Date(second.nextAttemptAt.getTime() + SECOND) });
    expect(await blobExists(file.key)).toBe(false);
    expect(await queuedDeletions([file.key])).toBe(0);
  });

  it("an upload refused after its blob was stored, whose blob delete fails, stays queued and the worker removes it", async () => {
    const t = await createTenant();
    const spy = vi.spyOn(blobStore(), "delete").mockRejectedValueOnce(new Error("store unavailable"));
    const res = await upload(t.member.token, t.workspace.id, { bytes: "refused", name: "refused.txt", visibility: "everyone" });
    expect(res.status).toBe(422);
    const key = spy.mock.calls[0][0];
    expect(await blobExists(key)).toBe(true);
    expect(await queuedDeletions([key])).toBe(1);
    await processBlobDeletions({ now: new Date(Date.now() + 60 * SECOND) });
    expect(await blobExists(key)).toBe(false);
    expect(await queuedDeletions([key])).toBe(0);
  });

  it("workers running at once share the queue: each queued blob is deleted exactly once", async () => {
    const t = await createTenant();
    const files = [];
    // One after another: twelve uploads at once would queue for the pool's connections.
    for (let i = 0; i < 12; i++) files.push(await uploaded(t.member.token, t.workspace.id));
    await db().workspace.delete({ where: { id: t.workspace.id, orgId: t.org.id } }); // committed, then a crash
    const spy = vi.spyOn(blobStore(), "delete");
    await Promise.all([processBlobDeletions(), processBlobDeletions(), processBlobDeletions()]);
    for (const file of files) {
      expect(spy.mock.calls.filter(([key]) => key === file.key)).toHaveLength(1);
      expect(await blobExists(file.key)).toBe(false);
    }
    expect(await queuedDeletions(files.map((f) => f.key))).toBe(0);
  });

  it("a queued key that a file row still references leaves the queue without its blob being touched", async () => {
    const t = await createTenant();
    const file = await uploaded(t.member.token, t.workspace.id);
    await db().blobDeletion.create({ data: { storageKey: file.key } });
    await processBlobDeletions();
    expect(await queuedDeletions([file.key])).toBe(0);
    expect(await blobExists(file.key)).toBe(true);
    expect((await api(t.member.token).get(`/api/v1/files/${file.id}/content`)).status).toBe(200);
  });

  it("removes an orphan older than an hour, keeps a fresh one and every blob that has a row, however old", async () => {
    const t = await createTenant();
    const oldOrphan = await orphan();
    store.age(oldOrphan, 2 * HOUR);
    const freshOrphan = await orphan();
    store.age(freshOrphan, 50 * 60 * 1000);
    const file = await uploaded(t.member.token, t.workspace.id);
    store.age(file.key, 3 * HOUR);

    const result = await sweepOrphanBlobs();
    expect(result.listed).toBeGreaterThanOrEqual(3);
    expect(result.removed).toBeGreaterThanOrEqual(1);
    expect(await blobExists(oldOrphan)).toBe(false);
    expect(await blobExists(freshOrphan)).toBe(true);
    expect(await blobExists(file.key)).toBe(true);
    const content = await api(t.member.token).get(`/api/v1/files/${file.id}/content`);
    expect(content.status).toBe(200);
    expect(content.text).toMatch(/^private text /);
  });

});

describe("the blob worker", () => {
  const store = localStoreFixture();
  beforeAll(() => store.activate());
  afterAll(() => store.release());

  it("retries queued deletions by itself in the server process, and stops on shutdown", async () => {
    const t = await createTenant();
    const file = await uploaded(t.member.token, t.workspace.id);
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
    const file = await uploaded(t.member.token, t.workspace.id);
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
