/**
 * Benchmark (not a test): streams a generated multipart upload of BENCH_UPLOAD_BYTES (default
 * 1 GiB) through the upload pipeline — busboy, the size/sniff inspector, sha256, the local blob
 * store — and reports the process's resident memory growth. Issue 5 asks for < 100 MiB.
 *
 *   npx tsx scripts/bench-upload-memory.ts            # 1 GiB
 *   BENCH_UPLOAD_BYTES=268435456 npx tsx scripts/bench-upload-memory.ts
 *
 * It measures the part of the upload path this repository owns; the HTTP server's own body
 * handling (Next.js streams route-handler bodies) is outside it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { LocalBlobStore } from "@/lib/files/local-blob-store";
import { parseMultipartUpload } from "@/lib/files/multipart-upload";

const total = Number(process.env.BENCH_UPLOAD_BYTES) || 1024 * 1024 * 1024;
const boundary = "----switchboard-bench";
const CHUNK = Buffer.alloc(64 * 1024, "switchboard ");

/** A multipart body of `bytes` file bytes, produced on demand (nothing is held but one chunk). */
function multipartBody(bytes: number): Readable {
  let sent = 0;
  let stage = 0;
  return new Readable({
    read() {
      if (stage === 0) {
        stage = 1;
        this.push(`--${boundary}\r\nContent-Disposition: form-data; name="tags"\r\n\r\nbench\r\n`);
        this.push(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`);
        return;
      }
      if (sent < bytes) {
        const n = Math.min(CHUNK.length, bytes - sent);
        sent += n;
        this.push(n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n));
        return;
      }
      if (stage === 1) {
        stage = 2;
        this.push(`\r\n--${boundary}--\r\n`);
        this.push(null);
      }
    },
  });
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-bench-"));
  const store = new LocalBlobStore(dir);
  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 25);
  const started = process.hrtime.bigint();
  const parsed = await parseMultipartUpload(multipartBody(total), `multipart/form-data; boundary=${boundary}`, {
    store,
    maxBytes: total,
    tooLarge: () => new Error("too large"),
  });
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const mib = (n: number) => (n / 1024 / 1024).toFixed(1);
  const growth = peak - baseline;
  console.log(`uploaded ${mib(parsed.file!.blob.size)} MiB in ${seconds.toFixed(1)} s (${mib(total / seconds)} MiB/s), sha256 ${parsed.file!.blob.sha256}`);
  console.log(`rss baseline ${mib(baseline)} MiB, peak ${mib(peak)} MiB, growth ${mib(growth)} MiB (limit 100 MiB)`);
  fs.rmSync(dir, { recursive: true, force: true });
  process.exitCode = growth < 100 * 1024 * 1024 ? 0 : 1;
}

void main();
