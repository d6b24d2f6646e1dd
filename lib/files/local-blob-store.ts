import { randomUUID } from "node:crypto";
import fsp from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { logger } from "@/lib/log";
import { BLOB_KEY as KEY, BlobNotFoundError } from "@/lib/files/blob-contract";
import type { BlobStore, ListedBlob, StoredBlob } from "@/lib/files/blob-store";
import { MeasuringStream } from "@/lib/files/measure";

/** A temp file not written to for this long belongs to an upload that died with its process. */
const STALE_TEMP_MS = 60 * 60 * 1000;

/**
 * Blobs as files under one directory: bytes are written to `tmp/<key>.part` and renamed to
 * `blobs/<key>` only when complete (rename is atomic on one filesystem), so a crash mid-upload
 * leaves at most a temp file, which the next process sweeps away.
 */
export class LocalBlobStore implements BlobStore {
  private swept = false;

  constructor(readonly dir: string) {}

  private blobPath(key: string): string {
    // Keys come from our own rows, but a path must never be built from anything else.
    if (!KEY.test(key)) throw new BlobNotFoundError(key);
    return path.join(this.dir, "blobs", key);
  }

  async put(source: Readable): Promise<StoredBlob> {
    await this.prepare();
    const key = randomUUID();
    const temp = path.join(this.dir, "tmp", `${key}.part`);
    const meter = new MeasuringStream();
    // Open first: a write stream that opens lazily could create the temp file after a failed
    // upload had already removed it.
    const handle = await fsp.open(temp, "wx");
    try {
      await pipeline(source, meter, handle.createWriteStream());
      await fsp.rename(temp, this.blobPath(key));
    } catch (e) {
      await handle.close().catch(() => undefined);
      await fsp.rm(temp, { force: true });
      throw e;
    }
    return { key, ...meter.result() };
  }

  async get(key: string): Promise<Readable> {
    try {
      const handle = await fsp.open(this.blobPath(key), "r");
      return handle.createReadStream();
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") throw new BlobNotFoundError(key);
      throw e;
    }
  }

  async delete(key: string): Promise<void> {
    if (!KEY.test(key)) return;
    await fsp.rm(this.blobPath(key), { force: true });
  }

  async *list(): AsyncIterable<ListedBlob> {
    const names = await fsp.readdir(path.join(this.dir, "blobs")).catch(() => [] as string[]);
    for (const key of names) {
      if (!KEY.test(key)) continue;
      // A blob deleted while the walk ran is simply not listed.
      const stat = await fsp.stat(this.blobPath(key)).catch(() => null);
      if (stat?.isFile()) yield { key, modifiedAt: stat.mtime };
    }
  }

  /** Creates the directories and, once per process, removes temp files of dead uploads. */
  private async prepare(): Promise<void> {
    await fsp.mkdir(path.join(this.dir, "tmp"), { recursive: true });
    await fsp.mkdir(path.join(this.dir, "blobs"), { recursive: true });
    if (this.swept) return;
    this.swept = true;
    await this.sweepStaleTemp(STALE_TEMP_MS).catch((err) => logger.warn({ err }, "could not sweep stale upload temp files"));
  }

  /** Removes temp files untouched for `olderThanMs`; returns how many were removed. */
  async sweepStaleTemp(olderThanMs: number): Promise<number> {
    const tmp = path.join(this.dir, "tmp");
    const names = await fsp.readdir(tmp).catch(() => [] as string[]);
    let removed = 0;
    for (const name of names) {
      const file = path.join(tmp, name);
      const stat = await fsp.stat(file).catch(() => null);
      if (stat && Date.now() - stat.mtimeMs >= olderThanMs) {
        await fsp.rm(file, { force: true });
        removed++;
      }
    }
    return removed;
  }
}
