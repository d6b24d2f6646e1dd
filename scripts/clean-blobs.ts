/**
 * npm run blobs:clean: the server's periodic blob work, on demand. Retries every queued blob
 * deletion now (whatever its backoff) and sweeps the store for orphans, then exits.
 */
import { db } from "../lib/db/client";
import { runBlobWorkerOnce } from "../lib/files/run-blob-worker";
import { ORPHAN_MIN_AGE_MS } from "../lib/files/sweep-orphan-blobs";

const HELP = `Usage: npm run blobs:clean [-- --queue-only | --sweep-only]

Removes file blobs that nothing references any more, as each server does periodically:
  1. every queued deletion (blobs of deleted files, workspaces and organizations whose store
     delete has not yet succeeded) is retried now, whatever its backoff; a row is removed
     only once the store confirms the blob is gone;
  2. the store is listed and every blob older than ${ORPHAN_MIN_AGE_MS / 60_000} minutes that no file row references
     is removed.

Options:
  --queue-only   only step 1
  --sweep-only   only step 2
  --help         show this help

Uses the same settings as the server: DATABASE_URL, and S3_* or SWITCHBOARD_FILES_DIR /
SWITCHBOARD_DATA_DIR for the blob store.
`;

async function main(args: string[]): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(HELP);
    return 0;
  }
  const unknown = args.filter((a) => !["--queue-only", "--sweep-only"].includes(a));
  if (unknown.length > 0 || (args.includes("--queue-only") && args.includes("--sweep-only"))) {
    process.stderr.write(`unexpected arguments: ${args.join(" ")}\n\n${HELP}`);
    return 2;
  }
  const sweepOnly = args.includes("--sweep-only");
  const pass = await runBlobWorkerOnce({
    queue: !sweepOnly,
    sweep: !args.includes("--queue-only"),
    ignoreBackoff: true,
  });
  if (!sweepOnly) console.log(`Queued deletions: ${pass.deletions.deleted} blob(s) deleted, ${pass.deletions.failed} failed (kept for retry).`);
  if (pass.sweep) console.log(`Sweep: ${pass.sweep.listed} blob(s) listed, ${pass.sweep.removed} orphan(s) removed.`);
  return pass.deletions.failed > 0 ? 1 : 0;
}

main(process.argv.slice(2))
  .then(async (code) => {
    await db().$disconnect();
    process.exit(code);
  })
  .catch((err: Error) => {
    console.error(`blobs:clean failed: ${err.message}`);
    process.exit(1);
  });
