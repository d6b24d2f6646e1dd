import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ensureBuild, type RunningApp, startApp } from "@/tests/e2e/support/next-app";

/**
 * Issue acceptance: "With only INSTANCE_API_KEY and curl, a script can create two orgs,
 * users, workspaces, roles, connectors with tools, stored resources, servers, skills and API
 * keys through the contract, and read them back; secrets never come back." Runs the README's
 * script against the production build over real HTTP.
 */

const run = promisify(execFile);
let app: RunningApp;

beforeAll(async () => {
  await ensureBuild();
  app = await startApp({ databaseUrl: inject("databaseUrl") });
}, 600_000);

afterAll(async () => {
  await app?.stop();
});

describe("scripts/api-walkthrough.sh", () => {
  it("creates two organizations with everything in them using only curl, and no secret comes back", async () => {
    const { stderr } = await run("bash", ["scripts/api-walkthrough.sh", app.baseUrl], {
      // The script speaks as the instance (it creates organizations): with the key startApp gave the app.
      env: { ...process.env, INSTANCE_API_KEY: process.env.INSTANCE_API_KEY ?? "test-instance-key" },
    }).catch((e: { stderr?: string }) => ({ stderr: `${e.stderr ?? e}\n--- server output ---\n${app.output()}` }));
    expect(stderr, app.output()).toContain("walkthrough complete");
    expect(stderr).not.toContain("FAIL");
    expect(stderr.match(/^ok {3}POST \/orgs /gm)).toHaveLength(2);
  }, 120_000);
});
