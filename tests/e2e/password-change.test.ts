import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, BrowserContext } from "playwright-core";
import { makeUser, uniqueSuffix } from "@/tests/helpers/factories";
import { ensureBuild, type RunningApp, startApp } from "@/tests/e2e/support/next-app";
import { launchBrowser, newContext, seriousA11yViolations, signIn } from "@/tests/e2e/support/browser";

/**
 * A person changes their password on Account in one browser, and their other browser (signed
 * in before) is signed out at its next page; the browser that made the change stays in.
 */

let app: RunningApp;
let browser: Browser;
let laptop: BrowserContext;
let phone: BrowserContext;
const person = { email: `e2e-pw-${uniqueSuffix()}@example.test`, password: `e2e-password-${uniqueSuffix()}` };
const NEW_PASSWORD = `changed-password-${uniqueSuffix()}`;

beforeAll(async () => {
  await ensureBuild();
  // A generous connect timeout: on a busy test machine the default 1 s fails page renders at random.
  [app, browser] = await Promise.all([startApp({ databaseUrl: inject("databaseUrl"), env: { DB_CONNECT_TIMEOUT_MS: "10000" } }), launchBrowser()]);
  await makeUser({ email: person.email, name: "Pat Password", password: person.password });
  laptop = await newContext(browser, app.baseUrl);
  phone = await newContext(browser, app.baseUrl);
}, 600_000);

afterAll(async () => {
  await laptop?.close();
  await phone?.close();
  await browser?.close();
  await app?.stop();
});

describe("password change", () => {
  it("changing it on Account signs the person's other browser out, and keeps this one in", async () => {
    const onPhone = await phone.newPage();
    await signIn(onPhone, person.email, person.password);
    const page = await laptop.newPage();
    await signIn(page, person.email, person.password);
    await page.getByRole("link", { name: "Account" }).click();
    await page.getByRole("heading", { name: "Account", level: 1 }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByLabel("Current password").fill("not the password at all");
    await page.getByLabel("New password").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByText("That is not your current password.").first().waitFor();

    await page.getByLabel("Current password").fill(person.password);
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByText("Password changed; signed out of 1 other session").first().waitFor();

    await onPhone.goto("/me/servers");
    await onPhone.waitForURL(/\/signin/);
    await page.goto("/me/servers");
    expect(new URL(page.url()).pathname).toBe("/me/servers");
    await signIn(onPhone, person.email, NEW_PASSWORD);
    expect(new URL(onPhone.url()).pathname).not.toBe("/signin");
  }, 180_000);
});
