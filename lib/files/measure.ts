import { createHash } from "node:crypto";
import { Transform, type TransformCallback } from "node:stream";

/**
 * A pass-through that counts the bytes and hashes them (SHA-256) on their way to storage, so
 * size and digest are known the moment the last byte is written, without a second read.
 */
export class MeasuringStream extends Transform {
  private readonly hash = createHash("sha256");
  private bytes = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    this.hash.update(chunk);
    callback(null, chunk);
  }

  /** Size and hex digest; call after the stream has finished. */
  result(): { size: number; sha256: string } {
    return { size: this.bytes, sha256: this.hash.digest("hex") };
  }
}
