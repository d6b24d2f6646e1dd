import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { db } from "@/lib/db/client";
import { ensureBuild, type RunningApp, startApp } from "@/tests/e2e/support/next-app";
import { launchBrowser, newContext, seriousA11yViolations, signIn } from "@/tests/e2e/support/browser";
import { type SeededAdmin, seedAdmin } from "@/tests/e2e/support/seed";
import { makeMember, uniqueSuffix } from "@/tests/helpers/factories";

/**
 * Issue 14 ("The audit log … has a retention setting") in real Chromium: the organization
 * settings page sets `auditRetentionDays` through the same operation as the API, says when old
 * events really go (the prune pass, every AUDIT_PRUNE_INTERVAL_SEC), refuses bad input in plain
 * words, and shows the setting read-only to admins, who may not change it.
 */

let app: RunningApp;
let browser: Browser;
let owner: SeededAdmin;

beforeAll(async () => {
  await ensureBuild();
  // A 15-minute pass, so the page's "every …" is shown to come from the setting, not a fixed text.
  [app, browser, owner] = await Promise.all([startApp({ databaseUrl: inject("databaseUrl"), env: { AUDIT_PRUNE_INTERVAL_SEC: "900" } }), launchBrowser(), seedAdmin()]);
}, 600_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

async function signedIn(email: string, password: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser, app.baseUrl);
  const page = await context.newPage();
  await signIn(page, email, password);
  return { context, page };
}

const retentionOf = async (orgId: string) => (await db().organization.findUniqueOrThrow({ where: { id: orgId }, select: { auditRetentionDays: true } })).auditRetentionDays;

describe("Organization settings: Audit retention", () => {
  it("an owner is told what the number does, gets plain messages for bad input, saves 90 days and finds them kept", async () => {
    const { context, page } = await signedIn(owner.email, owner.password);
    try {
      await page.goto(`/orgs/${owner.org.id}/settings`);
      const card = page.locator('[aria-labelledby="org-audit-retention-title"]');
      const days = card.getByLabel("Days to keep audit events");
      await card.getByText("Keep audit events for this many days; older ones are deleted every 15 minutes. Leave empty to keep every event.").waitFor();
      await expect(days.inputValue()).resolves.toBe("");
      expect(await seriousA11yViolations(page)).toEqual([]);

      await days.fill("ninety");
      await card.getByRole("button", { name: "Save" }).click();
      await card.getByText("Enter a whole number of days, such as 90, or leave it empty to keep every event.").waitFor();
      await days.fill("0");
      await card.getByRole("button", { name: "Save" }).click();
      await card.getByText("Choose from 1 to 36500 days (100 years), or leave it empty to keep every event.").waitFor();
      expect(await retentionOf(owner.org.id)).toBeNull();

      await days.fill("90");
      await card.getByRole("button", { name: "Save" }).click();
      await page.locator("[data-sonner-toast]").filter({ hasText: "Audit retention saved" }).first().waitFor();
      expect(await retentionOf(owner.org.id)).toBe(90);

      // The page's other org form saves after it with the version this save answered, not a 412.
      await page.locator('[aria-labelledby="org-tool-audit"]').getByRole("radio", { name: /Metadata and arguments/ }).check();
      await page.locator('[aria-labelledby="org-tool-audit"]').getByRole("button", { name: "Save" }).click();
      await page.locator("[data-sonner-toast]").filter({ hasText: "Tool audit setting saved" }).first().waitFor();

      await page.reload();
      await expect(page.locator('[aria-labelledby="org-audit-retention-title"]').getByLabel("Days to keep audit events").inputValue()).resolves.toBe("90");

      // Emptying it keeps every event again.
      await page.locator('[aria-labelledby="org-audit-retention-title"]').getByLabel("Days to keep audit events").fill("");
      await page.locator('[aria-labelledby="org-audit-retention-title"]').getByRole("button", { name: "Save" }).click();
      await page.locator("[data-sonner-toast]").filter({ hasText: "Audit retention saved" }).first().waitFor();
      expect(await retentionOf(owner.org.id)).toBeNull();
    } finally {
      await context.close();
    }
  });

  it("an admin reads the retention but has no field to change it", async () => {
    await db().organization.update({ where: { id: owner.org.id }, data: { auditRetentionDays: 30 } });
    const suffix = uniqueSuffix();
    const email = `e2e-retention-admin-${suffix}@example.test`;
    const password = `e2e-password-${suffix}`;
    await makeMember({ orgId: owner.org.id }, { role: "admin", workspace: false, email, name: "Org Admin", password });
    const { context, page } = await signedIn(email, password);
    try {
      await page.goto(`/orgs/${owner.org.id}/settings`);
      const card = page.locator('[aria-labelledby="org-audit-retention-title"]');
      await card.getByText("Audit events are kept for 30 days; older ones are deleted every 15 minutes.").waitFor();
      await card.getByText("Only an owner of the organization can change this.").waitFor();
      await expect(card.getByLabel("Days to keep audit events").count()).resolves.toBe(0);
      await expect(card.getByRole("button", { name: "Save" }).count()).resolves.toBe(0);
    } finally {
      await context.close();
    }
  });
});
