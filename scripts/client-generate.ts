/**
 * npm run client:generate: writes the types of the typed API client (packages/client) from the
 * OpenAPI document /api/v1 serves. Run it after changing an endpoint spec (lib/<domain>/endpoints.ts).
 */
import fs from "node:fs";
import path from "node:path";
import { CLIENT_TYPES_FILE, clientTypesSource, servedOpenApiText } from "./lib/client-types";

const HELP = `Usage: npm run client:generate [-- --check]

Generates ${CLIENT_TYPES_FILE} (the types of @switchboard/client) with openapi-typescript from the
OpenAPI document that GET /api/v1/openapi.json serves. The document is built in-process from the
endpoint specs (lib/<domain>/endpoints.ts): no server, build or database is needed.

Options:
  --check   Write nothing; exit 1 when the committed file differs from what would be generated.
  --help    Show this help.
`;

async function main(argv: string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(HELP);
    return 0;
  }
  const unknown = argv.filter((a) => a !== "--check");
  if (unknown.length > 0) {
    process.stderr.write(`Unknown argument: ${unknown[0]}\n\n${HELP}`);
    return 2;
  }
  const file = path.join(process.cwd(), CLIENT_TYPES_FILE);
  const source = await clientTypesSource(JSON.parse(await servedOpenApiText()));
  if (argv.includes("--check")) {
    const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
    if (current === source) return 0;
    process.stderr.write(`${CLIENT_TYPES_FILE} is stale: run npm run client:generate and commit it.\n`);
    return 1;
  }
  fs.writeFileSync(file, source);
  process.stdout.write(`Wrote ${CLIENT_TYPES_FILE} (${source.length} characters).\n`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  },
);
