import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { db } from "@/lib/db/client";
import { createApiKeyFor, makeUser, uniqueSuffix } from "@/tests/helpers/factories";
import { ensureBuild, type RunningApp, startApp } from "@/tests/e2e/support/next-app";
import { launchBrowser, newContext, screenshot, seriousA11yViolations, signIn } from "@/tests/e2e/support/browser";
import { type SeededAdmin, seedAdmin } from "@/tests/e2e/support/seed";

/**
 * The consent flow in real Chromium: an owner adds an existing account by email and gets a
 * pending invitation; the invited person signs in, finds it under Invitations, accepts, and sees
 * the key the admin then made in their name, with who made it.
 */

let app: RunningApp;
let browser: Browser;
let adminContext: BrowserContext;
let inviteeContext: BrowserContext;
let admin: SeededAdmin;
const invitee = { email: `e2e-invitee-${uniqueSuffix()}@example.test`, password: `e2e-password-${uniqueSuffix()}`, id: "" };

async function axeBothSchemes(page: Page): Promise<Record<string, unknown>> {
  const problems: Record<string, unknown> = {};
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForFunction((dark) => document.documentElement.classList.contains("dark") === dark, scheme === "dark");
    const violations = await seriousA11yViolations(page);
    if (violations.length) problems[scheme] = violations;
  }
  await page.emulateMedia({ colorScheme: "light" });
  return problems;
}

beforeAll(async () => {
  await ensureBuild();
  // A generous connect timeout: on a busy test machine the default 1 s fails page renders at random.
  [app, browser, admin] = await Promise.all([startApp({ databaseUrl: inject("databaseUrl"), env: { DB_CONNECT_TIMEOUT_MS: "10000" } }), launchBrowser(), seedAdmin()]);
  const user = await makeUser({ email: invitee.email, name: "Ivy Invitee", password: invitee.password });
  invitee.id = user.id;
  adminContext = await newContext(browser, app.baseUrl);
  inviteeContext = await newContext(browser, app.baseUrl);
}, 600_000);

afterAll(async () => {
  await adminContext?.close();
  await inviteeContext?.close();
  await browser?.close();
  await app?.stop();
});

describe("invitations in the console", () => {
  it("an owner adding an existing account by email sees a pending invitation, not a new member", async () => {
    const page = await adminContext.newPage();
    await signIn(page, admin.email, admin.password);
    await page.goto(`/orgs/${admin.org.id}/members`);
    await page.getByRole("textbox", { name: "Email", exact: true }).fill(invitee.email);
    await page.getByRole("button", { name: "Add to organization" }).click();
    await page.getByText(`${invitee.email} invited: they join once they accept`).waitFor();
    const pending = page.getByRole("table", { name: "Invitations not answered yet" });
    await pending.getByText(invitee.email).waitFor();
    await expect(page.getByRole("table", { name: `Members of ${admin.org.name}` }).getByText(invitee.email).count()).resolves.toBe(0);
    expect(await db().orgMember.count({ where: { orgId: admin.org.id, userId: invitee.id } })).toBe(0);
    await screenshot(page, "invitations-01-members-page");
    // A toast still fading in has, for that moment, too little contrast: check the page once it has gone.
    await page.locator("[data-sonner-toast]").first().waitFor({ state: "detached", timeout: 20_000 });
    expect(await axeBothSchemes(page)).toEqual({});
  }, 120_000);

  it("the invited person accepts on the Invitations page and joins", async () => {
    const page = await inviteeContext.newPage();
    await signIn(page, invitee.email, invitee.password);
    await page.getByRole("link", { name: "Invitations (1)" }).click();
    await page.getByRole("heading", { name: "Invitations", level: 1 }).waitFor();
    await page.getByRole("cell", { name: admin.org.name, exact: true }).waitFor();
    expect(await axeBothSchemes(page)).toEqual({});
    await screenshot(page, "invitations-02-invitations-page");
    await page.getByRole("button", { name: `Accept the invitation to ${admin.org.name}` }).click();
    await page.getByText(`You joined ${admin.org.name}`).waitFor();
    await page.getByText("No pending invitations").waitFor();
    expect(await db().orgMember.count({ where: { orgId: admin.org.id, userId: invitee.id, role: "member" } })).toBe(1);
  }, 120_000);

  it("a key an admin made in their name is listed under Your API keys with who made it, and they revoke it", async () => {
    const key = await createApiKeyFor({ id: invitee.id }, { id: admin.workspace.id, orgId: admin.org.id });
    await db().apiKey.update({ where: { id: key.apiKeyId }, data: { name: "made by admin", createdById: admin.userId } });
    const page = await inviteeContext.newPage();
    await page.goto("/me/api-keys");
    const row = page.getByRole("row").filter({ hasText: "made by admin" });
    await row.getByText("E2E Admin").waitFor();
    expect(await axeBothSchemes(page)).toEqual({});
    await screenshot(page, "invitations-03-your-api-keys");
    await row.getByRole("button", { name: "Revoke made by admin" }).click();
    await page.getByRole("button", { name: "Revoke key" }).click();
    await page.getByText('Key "made by admin" revoked').waitFor();
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: key.apiKeyId } })).revokedAt).not.toBeNull();
  }, 120_000);
});
