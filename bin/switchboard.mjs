#!/usr/bin/env node
// `npx switchboard …` from a checkout: runs scripts/switchboard.ts with tsx and the project's
// tsconfig (its paths map @switchboard/client to packages/client/src), wherever it is called from.
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// tsx as this checkout has it: `--import tsx` alone would be looked up from the caller's directory.
const tsx = import.meta.resolve("tsx");
const result = spawnSync(process.execPath, ["--import", tsx, join(root, "scripts", "switchboard.ts"), ...process.argv.slice(2)], {
  stdio: "inherit",
  env: { ...process.env, TSX_TSCONFIG_PATH: join(root, "tsconfig.json") },
});
process.exit(result.status ?? 1);
