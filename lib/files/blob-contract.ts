/**
 * What every blob store shares at run time: the key shape and the not-found error. Apart from
 * lib/files/blob-store.ts, which picks a store, so the stores load without it.
 */

/** The shape of every key `put` hands out (a UUID): nothing else is ever read or deleted. */
export const BLOB_KEY = /^[0-9a-f-]{36}$/;

export class BlobNotFoundError extends Error {
  constructor(key: string) {
    super(`No blob is stored under ${key}.`);
    this.name = "BlobNotFoundError";
  }
}
