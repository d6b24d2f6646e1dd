import { Transform, type TransformCallback } from "node:stream";

/** Bytes kept from the start of an upload for MIME sniffing (file-type needs a few KiB; zip-based formats a little more). */
export const SNIFF_BYTES = 64 * 1024;

/**
 * Watches an upload on its way to the blob store: refuses it the moment it passes `maxBytes`
 * (so nothing past the limit is ever written), keeps its first bytes for MIME sniffing and
 * tells whether the whole content is text (valid UTF-8 without NUL bytes).
 */
export class UploadInspector extends Transform {
  private bytes = 0;
  private readonly headChunks: Buffer[] = [];
  private headBytes = 0;
  private readonly decoder = new TextDecoder("utf-8", { fatal: true });
  private text = true;

  constructor(
    private readonly maxBytes: number,
    private readonly tooLarge: () => Error,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) return callback(this.tooLarge());
    if (this.headBytes < SNIFF_BYTES) {
      const part = chunk.subarray(0, SNIFF_BYTES - this.headBytes);
      this.headChunks.push(Buffer.from(part));
      this.headBytes += part.length;
    }
    if (this.text) this.checkText(chunk, true);
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    if (this.text) this.checkText(new Uint8Array(0), false);
    callback();
  }

  private checkText(chunk: Uint8Array, more: boolean): void {
    if (chunk.includes(0)) {
      this.text = false;
      return;
    }
    try {
      this.decoder.decode(chunk, { stream: more });
    } catch {
      this.text = false;
    }
  }

  /** What was seen; call after the stream has finished. */
  result(): { head: Buffer; isText: boolean } {
    return { head: Buffer.concat(this.headChunks), isText: this.text };
  }
}
