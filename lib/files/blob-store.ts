import path from "node:path";
import type { Readable } from "node:stream";
import { LocalBlobStore } from "@/lib/files/local-blob-store";
import { S3BlobStore, s3ConfigFromEnv } from "@/lib/files/s3-blob-store";
import { dataDir, setting } from "@/lib/config/settings";
import { processState } from "@/lib/process-state";

/**
 * Where file bytes live. A blob is written once, read whole, deleted once; its row in `files`
 * (lib/files) is committed only after `put` has resolved, so a blob that failed half-way is
 * never referenced by anything.
 */
export interface StoredBlob {
  key: string;
  size: number;
  /** Hex SHA-256 of the bytes, computed while they streamed through. */
  sha256: string;
}

export interface BlobStore {
  /**
   * Streams `source` into a new blob. Resolves only once every byte is durable; if `source`
   * errors (too large, client gone) the partial blob is removed before the promise rejects.
   */
  put(source: Readable): Promise<StoredBlob>;
  /** The blob's bytes; rejects with BlobNotFoundError when the key names nothing. */
  get(key: string): Promise<Readable>;
  /** Removes a blob; a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Every stored blob with the time it was last written (the orphan sweep walks this). */
  list(): AsyncIterable<ListedBlob>;
}

export interface ListedBlob {
  key: string;
  modifiedAt: Date;
}

// The store implementations need these too: they live apart so that neither loads this module back.
export { BLOB_KEY, BlobNotFoundError } from "@/lib/files/blob-contract";

/** `<SWITCHBOARD_DATA_DIR or ./.data>/files`, or SWITCHBOARD_FILES_DIR when set (tests). */
export function localFilesDir(): string {
  return setting("SWITCHBOARD_FILES_DIR") ?? path.join(dataDir(), "files");
}

const globalForBlobs = processState<{ switchboardBlobStores?: Map<string, BlobStore> }>();

/**
 * The process's blob store: S3-compatible when `S3_BUCKET` is set (S3_ENDPOINT, S3_REGION,
 * S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY), else the local directory. Chosen from the
 * environment at each call and cached per configuration, so nothing connects at import time.
 */
export function blobStore(): BlobStore {
  const s3 = s3ConfigFromEnv();
  const id = s3 ? `s3:${s3.endpoint ?? ""}:${s3.bucket}` : `local:${localFilesDir()}`;
  globalForBlobs.switchboardBlobStores ??= new Map();
  const stores = globalForBlobs.switchboardBlobStores;
  let store = stores.get(id);
  if (!store) {
    store = s3 ? new S3BlobStore(s3) : new LocalBlobStore(localFilesDir());
    stores.set(id, store);
  }
  return store;
}
