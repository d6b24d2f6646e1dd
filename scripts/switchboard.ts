/**
 * The `switchboard` command (bin/switchboard.mjs; `npx switchboard --help` from a checkout).
 * Today: `switchboard config export|plan|apply|secret` (scripts/lib/config-cli.ts).
 */
import { text as readAll } from "node:stream/consumers";
import { runConfigCli } from "./lib/config-cli";

void runConfigCli(process.argv.slice(2), {
  env: process.env,
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  readStdin: async () => (process.stdin.isTTY ? null : readAll(process.stdin)),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 1;
  },
);
