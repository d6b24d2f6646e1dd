import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * The fast tier alone (`npm run test:unit`): tests/unit needs no database, app build, browser or
 * Redis, so it runs without the global setup that starts PostgreSQL. `npm test` runs it too,
 * with everything else (vitest.config.mts).
 */
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["tests/unit/**/*.test.ts"],
    // The instance key some unit tests read (a default install has none), and no logs.
    env: { NODE_ENV: "test", INSTANCE_API_KEY: "test-instance-key", LOG_LEVEL: "silent" },
    testTimeout: 30_000,
    // Threads sharing one module graph per worker: the tier's cost was importing (each file
    // re-imported zod, the SDK, the app's modules in a fresh process). Forks with isolation took
    // 80 s of CPU for 46 files; threads without isolation 37 s. Unit tests restore what they
    // change (env in afterEach, vi.unstubAllEnvs, restoreAllMocks), so sharing modules is safe.
    pool: "threads",
    isolate: false,
  },
});
