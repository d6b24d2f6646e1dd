import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import { describeFlaw, textFlaw } from "@/lib/api/validate-text";
import { AppError, ValidationError } from "@/lib/errors";
import type { BlobStore, StoredBlob } from "@/lib/files/blob-store";
import { UploadInspector } from "@/lib/files/upload-inspector";

/** What a multipart upload carried: the stored blob of its `file` part and its text fields. */
export interface ParsedUpload {
  file: { filename: string; blob: StoredBlob; head: Buffer; isText: boolean } | null;
  tags: string[];
  visibility: string[];
}

export interface ParseOptions {
  store: BlobStore;
  /** Largest file accepted; the part is refused with `tooLarge()` the moment it passes this. */
  maxBytes: number;
  tooLarge: () => Error;
}

const FIELD_LIMITS = { files: 1, fields: 100, fieldSize: 1024, parts: 101, headerPairs: 100 };

/**
 * Streams a multipart/form-data body: the `file` part goes straight into the blob store
 * (through the inspector, which enforces the size limit), the `tags` and `visibility` fields
 * are collected, whatever order the parts come in; a file name or field the database cannot
 * store (NUL, unpaired surrogate) is refused with 422 before anything is stored. Never holds the file in memory. If anything
 * fails, the blob written so far is removed before the promise rejects.
 */
export function parseMultipartUpload(source: Readable, contentType: string | null, opts: ParseOptions): Promise<ParsedUpload> {
  let parser: busboy.Busboy;
  try {
    // Browsers send file names as raw UTF-8 bytes; busboy would read them as latin1.
    parser = busboy({ headers: { "content-type": contentType ?? "" }, limits: FIELD_LIMITS, defParamCharset: "utf8" });
  } catch {
    source.destroy();
    return Promise.reject(new AppError("unsupported_media_type", "Send the upload as multipart/form-data with a `file` part."));
  }
  const parsed: ParsedUpload = { file: null, tags: [], visibility: [] };

  return new Promise<ParsedUpload>((resolve, reject) => {
    let settled = false;
    let inspector: UploadInspector | null = null;
    let pending: Promise<ParsedUpload["file"]> | null = null;

    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      if (inspector && !inspector.writableFinished) inspector.destroy(err as Error);
      source.unpipe(parser);
      source.destroy();
      parser.destroy();
      // Wait for the store to finish cleaning up (or remove what it finished), then answer.
      const stored = pending ?? Promise.resolve(null);
      stored
        .then((file) => (file ? opts.store.delete(file.blob.key) : undefined))
        .catch(() => undefined)
        .finally(() => reject(err));
    };

    parser.on("file", (field, stream, info) => {
      if (field !== "file" || pending) {
        stream.resume();
        return;
      }
      const nameFlaw = textFlaw(info.filename ?? "");
      if (nameFlaw) {
        // Destroying the parser ends this part's stream with an error nobody else listens for.
        stream.on("error", () => undefined).resume();
        return fail(new ValidationError([{ path: "file", message: `The file name ${describeFlaw(nameFlaw)}.` }]));
      }
      const inspect = new UploadInspector(opts.maxBytes, opts.tooLarge);
      inspector = inspect;
      // Its errors reach us through the store's promise; a late destroy must not go unhandled.
      inspect.on("error", () => undefined);
      const blob = opts.store.put(inspect);
      // pipeline owns the busboy stream's errors; the store sees them through `inspect`.
      pipeline(stream, inspect).catch((err) => inspect.destroy(err));
      pending = blob.then((b) => ({ filename: info.filename ?? "", blob: b, ...inspect.result() }));
      pending.catch(fail);
    });
    parser.on("field", (name, value, info) => {
      if (info.valueTruncated) return fail(new ValidationError([{ path: name, message: "Too long." }]));
      const flaw = textFlaw(value);
      if (flaw) return fail(new ValidationError([{ path: name, message: `The value ${describeFlaw(flaw)}.` }]));
      if (name === "tags") parsed.tags.push(value);
      else if (name === "visibility") parsed.visibility.push(value);
    });
    parser.on("filesLimit", () => fail(new ValidationError([{ path: "file", message: "Send exactly one file per upload." }])));
    parser.on("fieldsLimit", () => fail(new ValidationError([{ path: "tags", message: "Too many fields." }])));
    parser.on("partsLimit", () => fail(new ValidationError([{ path: "(body)", message: "Too many parts." }])));
    parser.on("error", (err) => fail(new AppError("bad_request", `The multipart body is malformed: ${(err as Error).message}`)));
    // The client went away mid-body (closed tab, lost network): its fault, not ours — a 400
    // nobody reads, and no "unhandled error" line in the log.
    source.on("error", () => fail(new AppError("bad_request", "The upload was interrupted before it finished; send it again.")));
    parser.on("close", () => {
      if (settled) return;
      (pending ?? Promise.resolve(null)).then((file) => {
        if (settled) return;
        settled = true;
        resolve({ ...parsed, file });
      }, fail);
    });
    source.pipe(parser);
  });
}
