import path from "node:path";
import { defineConfig } from "prisma/config";

// No machine here can download Prisma's native engines: `generate` needs none when the
// schema engine is stubbed, and migrations run through scripts/db-migrate.ts (WASM engine).
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.join(__dirname, "scripts", "no-schema-engine.sh");
process.env.CHECKPOINT_DISABLE ??= "1";

export default defineConfig({
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://postgres:postgres@127.0.0.1:25432/switchboard" },
});
