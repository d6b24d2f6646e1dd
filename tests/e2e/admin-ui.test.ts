import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { ensureBuild, type RunningApp, startApp } from "@/tests/e2e/support/next-app";
import { launchBrowser, newContext, screenshot, seriousA11yViolations, signIn } from "@/tests/e2e/support/browser";
import { type SeededAdmin, seedAdmin } from "@/tests/e2e/support/seed";

/**
 * The admin UI in real Chromium against a production build (`next build` + `next start`) and
 * the test database. One browser, one signed-in admin, flows in order: later steps use what
 * earlier ones created, as an admin would.
 */

let app: RunningApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let admin: SeededAdmin;

beforeAll(async () => {
  await ensureBuild();
  [app, browser, admin] = await Promise.all([startApp({ databaseUrl: inject("databaseUrl") }), launchBrowser(), seedAdmin()]);
  context = await newContext(browser, app.baseUrl);
  page = await context.newPage();
}, 600_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await app?.stop();
});

describe("admin UI", () => {
  it("signs in through the sign-in page and opens the organization", async () => {
    await signIn(page, admin.email, admin.password);
    await page.goto(`/orgs/${admin.org.id}/workspaces`);
    await expect(page.getByRole("heading", { level: 1, name: "Workspaces" }).isVisible()).resolves.toBe(true);
    await screenshot(page, "01-workspaces");
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
});
