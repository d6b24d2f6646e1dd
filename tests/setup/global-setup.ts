import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "@/lib/db/embedded-postgres";
import { applyMigrations } from "@/lib/db/migrate";
import { freePort } from "@/lib/net/free-port";

/**
 * One real PostgreSQL for the whole run: TEST_DATABASE_URL when given (CI may point it at
 * Debian's server), otherwise a throwaway embedded PostgreSQL on a free port. Migrations are
 * applied exactly as `npm start` applies them.
 */
export default async function setup(project: TestProject) {
  let url = process.env.TEST_DATABASE_URL;
  let stop: (() => Promise<void>) | undefined;
  let dataDir: string | undefined;
  if (!url) {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-test-pg-"));
    fs.chmodSync(dataDir, 0o777);
    const pg = await startEmbeddedPostgres({ dataDir: path.join(dataDir, "data"), port: await freePort(), database: "switchboard_test" });
    url = pg.url;
    stop = pg.stop;
  }
  await applyMigrations(url);
  project.provide("databaseUrl", url);
  return async () => {
    await stop?.();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}
