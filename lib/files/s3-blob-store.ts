import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { DeleteObjectCommand, GetObjectCommand, paginateListObjectsV2, S3Client } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { settingIn } from "@/lib/config/settings";
import { logger } from "@/lib/log";
import { BLOB_KEY, BlobNotFoundError } from "@/lib/files/blob-contract";
import type { BlobStore, ListedBlob, StoredBlob } from "@/lib/files/blob-store";
import { MeasuringStream } from "@/lib/files/measure";

export interface S3Config {
  bucket: string;
  /** Custom endpoint of an S3-compatible service (MinIO, R2, …); absent for AWS itself. */
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Path-style addressing (`endpoint/bucket/key`), which most S3-compatible services need. */
  forcePathStyle: boolean;
}

/** The S3 configuration from `S3_*`, or null when `S3_BUCKET` is not set (local store). */
export function s3ConfigFromEnv(env: Record<string, string | undefined> = process.env): S3Config | null {
  const bucket = settingIn(env, "S3_BUCKET");
  if (!bucket) return null;
  const endpoint = settingIn(env, "S3_ENDPOINT");
  return {
    bucket,
    endpoint,
    region: settingIn(env, "S3_REGION") ?? "us-east-1",
    accessKeyId: settingIn(env, "S3_ACCESS_KEY_ID"),
    secretAccessKey: settingIn(env, "S3_SECRET_ACCESS_KEY"),
    forcePathStyle: settingIn(env, "S3_FORCE_PATH_STYLE") ?? Boolean(endpoint),
  };
}

const PREFIX = "files/";
const PART_SIZE = 8 * 1024 * 1024;

/**
 * Blobs as objects in an S3-compatible bucket. Uploads go through lib-storage's multipart
 * upload, so at most a few parts are in memory; an object becomes visible only when the upload
 * completes, and a failed upload is aborted (its parts discarded) by lib-storage.
 */
export class S3BlobStore implements BlobStore {
  readonly client: S3Client;

  constructor(readonly config: S3Config) {
    const credentials = config.accessKeyId && config.secretAccessKey
      ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
      : undefined;
    this.client = new S3Client({ region: config.region, endpoint: config.endpoint, forcePathStyle: config.forcePathStyle, credentials });
  }

  private objectKey(key: string): string {
    return `${PREFIX}${key}`;
  }

  async put(source: Readable): Promise<StoredBlob> {
    const key = randomUUID();
    const meter = new MeasuringStream();
    source.on("error", (err) => meter.destroy(err));
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.config.bucket, Key: this.objectKey(key), Body: source.pipe(meter) },
      partSize: PART_SIZE,
      queueSize: 2,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (e) {
      // A single-part upload may have landed before the failure was noticed: remove it too.
      await this.delete(key).catch((err) => logger.warn({ err, key }, "could not remove a failed upload's object"));
      throw e;
    }
    return { key, ...meter.result() };
  }

  async get(key: string): Promise<Readable> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(key) }));
      if (!out.Body) throw new BlobNotFoundError(key);
      return out.Body instanceof Readable ? out.Body : Readable.fromWeb(out.Body.transformToWebStream() as never);
    } catch (e) {
      if ((e as { name?: string }).name === "NoSuchKey") throw new BlobNotFoundError(key);
      throw e;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(key) }));
  }

  async *list(): AsyncIterable<ListedBlob> {
    for await (const page of paginateListObjectsV2({ client: this.client }, { Bucket: this.config.bucket, Prefix: PREFIX })) {
      for (const object of page.Contents ?? []) {
        const key = object.Key?.slice(PREFIX.length) ?? "";
        // Objects we did not write (a shared bucket) are not ours to sweep.
        if (BLOB_KEY.test(key) && object.LastModified) yield { key, modifiedAt: object.LastModified };
      }
    }
  }
}
