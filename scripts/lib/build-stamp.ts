import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * Whether .next holds a production build of exactly the current sources: `npm start`, the
 * browser tests and the benchmarks share one stamp, so none of them rebuilds what another built.
 */

const BUILD_INPUTS = ["app", "lib", "components", "prisma", "public", "package.json", "package-lock.json",
  "next.config.ts", "tsconfig.json", "postcss.config.mjs", "proxy.ts", "instrumentation.ts"];

export function stampFile(root: string): string {
  return path.join(root, ".next", "switchboard-build-stamp");
}

/** Paths, sizes and mtimes of every build input: a few hundred stat calls, no file reads. */
export function buildInputsHash(root: string): string {
  const hash = createHash("sha256");
  const visit = (rel: string) => {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(path.join(root, rel));
    } catch {
      return;
    }
    if (!stat.isDirectory()) return void hash.update(`${rel}\0${stat.size}\0${stat.mtimeMs}\n`);
    for (const entry of fs.readdirSync(path.join(root, rel)).sort()) {
      if (entry !== "node_modules" && !entry.startsWith(".")) visit(path.join(rel, entry));
    }
  };
  BUILD_INPUTS.forEach(visit);
  return hash.digest("hex");
}

/** True when .next has a build whose stamp is `stamp` (the hash taken before that build). */
export function isBuildFresh(root: string, stamp: string): boolean {
  if (!fs.existsSync(path.join(root, ".next", "BUILD_ID"))) return false;
  try {
    return fs.readFileSync(stampFile(root), "utf8") === stamp;
  } catch {
    return false;
  }
}

/** Records that the build just made is of the sources hashed as `stamp`. */
export function writeBuildStamp(root: string, stamp: string): void {
  fs.writeFileSync(stampFile(root), stamp);
}
