import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname), "@switchboard/client": path.resolve(import.meta.dirname, "packages/client/src/index.ts") } },
  test: {
    include: ["tests/**/*.test.ts"],
    globalSetup: ["tests/setup/global-setup.ts"],
    setupFiles: ["tests/setup/worker-env.ts"],
    // Every test process: the instance key the tests call the admin API with (a default install has none), and no logs.
    env: { NODE_ENV: "test", INSTANCE_API_KEY: "test-instance-key", LOG_LEVEL: "silent" },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
