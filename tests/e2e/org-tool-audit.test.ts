import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { db } from "@/lib/db/client";
import { ensureBuild, type RunningApp, startApp } from "@/tests/e2e/support/next-app";
import { launchBrowser, newContext, seriousA11yViolations, signIn } from "@/tests/e2e/support/browser";
import { type SeededAdmin, seedAdmin } from "@/tests/e2e/support/seed";
import { makeMember, uniqueSuffix } from "@/tests/helpers/factories";

/**
 * Issue 10 point 4 in real Chromium: the organization settings page shows what tool audit
 * events keep, with what each choice means for who can read what; an owner changes it, an
 * admin sees it without being able to.
 */

let app: RunningApp;
let browser: Browser;
let owner: SeededAdmin;

beforeAll(async () => {
  await ensureBuild();
  [app, browser, owner] = await Promise.all([startApp({ databaseUrl: inject("databaseUrl") }), launchBrowser(), seedAdmin()]);
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

describe("Organization settings: Audit log of tool calls", () => {
  it("an owner reads what each choice implies and switches to arguments and results; it is saved", async () => {
    const { context, page } = await signedIn(owner.email, owner.password);
    try {
      await page.goto(`/orgs/${owner.org.id}/settings`);
      const card = page.locator('[aria-labelledby="org-tool-audit"]');
      await card.getByText("Audit log of tool calls").waitFor();
      await expect(card.getByRole("radio", { name: /Metadata only/ }).isChecked()).resolves.toBe(true);
      await card.getByText(/never the content/).waitFor();
      await card.getByText(/including text of members' private files/).waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);
      await card.getByRole("radio", { name: /Metadata, arguments and results/ }).check();
      await card.getByRole("button", { name: "Save" }).click();
      await page.locator("[data-sonner-toast]").filter({ hasText: "Tool audit setting saved" }).first().waitFor();
      const org = await db().organization.findUniqueOrThrow({ where: { id: owner.org.id }, select: { toolAuditDetail: true } });
      expect(org.toolAuditDetail).toBe("arguments_and_results");
      await page.reload();
      await expect(page.locator('[aria-labelledby="org-tool-audit"]').getByRole("radio", { name: /Metadata, arguments and results/ }).isChecked()).resolves.toBe(true);
    } finally {
      await context.close();
    }
  });

  it("an admin sees the choice but cannot change it", async () => {
    const suffix = uniqueSuffix();
    const email = `e2e-org-admin-${suffix}@example.test`;
    const password = `e2e-password-${suffix}`;
    await makeMember({ orgId: owner.org.id }, { role: "admin", workspace: false, email, name: "Org Admin", password });
    const { context, page } = await signedIn(email, password);
    try {
      await page.goto(`/orgs/${owner.org.id}/settings`);
      const card = page.locator('[aria-labelledby="org-tool-audit"]');
      await card.getByText("Only an owner of the organization can change this.").waitFor();
      await expect(card.getByRole("radio", { name: /Metadata only/ }).isDisabled()).resolves.toBe(true);
      await expect(card.getByRole("button", { name: "Save" }).count()).resolves.toBe(0);
    } finally {
      await context.close();
    }
  });
});
