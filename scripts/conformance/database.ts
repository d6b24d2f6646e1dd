import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "@/lib/net/free-port";

/**
 * DATABASE_URL, or a throwaway embedded PostgreSQL, with the migrations applied: the database
 * the conformance runners use. What must happen when the run ends is added to `cleanups`.
 */
export async function ensureDatabase(cleanups: Array<() => Promise<void>>): Promise<string> {
  const { applyMigrations } = await import("../../lib/db/migrate");
  if (!process.env.DATABASE_URL) {
    const { startEmbeddedPostgres } = await import("../../lib/db/embedded-postgres");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-conformance-"));
    fs.chmodSync(dir, 0o777);
    const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, "data"), port: await freePort(), database: "conformance" });
    cleanups.push(async () => {
      await pg.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    process.env.DATABASE_URL = pg.url;
  }
  await applyMigrations(process.env.DATABASE_URL);
  return process.env.DATABASE_URL;
}
