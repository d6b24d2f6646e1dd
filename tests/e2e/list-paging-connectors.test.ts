import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { db } from "@/lib/db/client";
import { createHttpConnector, type Tenant } from "@/tests/helpers/factories";
import { ensureBuild, type RunningApp, startApp } from "@/tests/e2e/support/next-app";
import { launchBrowser, screenshot, signedInPage } from "@/tests/e2e/support/browser";
import { type SeededAdmin, seedAdmin } from "@/tests/e2e/support/seed";

/**
 * A long list in real Chromium against the production build: 63 connectors. Search, sort by a
 * header, the next page, and a bulk delete confirmed by its count — all in the URL, so each view
 * is a link — and no sideways scroll at 390 px.
 */

let app: RunningApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let admin: SeededAdmin;

const rows = () => page.locator("tbody tr");
/** A loaded machine may take a while to answer a navigation or a bulk request. */
const slow = { timeout: 20_000 };
const names = () => page.locator("tbody tr td:nth-child(2) a").allInnerTexts();

beforeAll(async () => {
  admin = await seedAdmin();
  const tenant = { org: { id: admin.org.id } } as Tenant;
  for (let i = 1; i <= 60; i++) await createHttpConnector(tenant, `Conn ${String(i).padStart(3, "0")}`, ["ping"]);
  for (const name of ["Billing Alpha", "Billing Beta", "Billing Gamma"]) await createHttpConnector(tenant, name, ["ping"]);
  await ensureBuild();
  [app, browser] = await Promise.all([startApp({ databaseUrl: inject("databaseUrl") }), launchBrowser()]);
  ({ context, page } = await signedInPage(browser, app.baseUrl, admin.email, admin.password));
}, 900_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await app?.stop();
});

describe("a long list", () => {
  it("pages, searches (with an empty state naming the search) and sorts by a header", async () => {
    await page.goto(`/orgs/${admin.org.id}/connectors`);
    await expect.poll(() => rows().count(), slow).toBe(50);

    const search = page.getByRole("searchbox", { name: "Search connectors" });
    await search.fill("billing");
    await search.press("Enter");
    await page.waitForURL(/[?&]q=billing/);
    await expect.poll(names, slow).toEqual(["Billing Alpha", "Billing Beta", "Billing Gamma"]);

    await search.fill("nothing-like-this");
    await search.press("Enter");
    await expect.poll(() => page.getByRole("status").filter({ hasText: "No results for “nothing-like-this”" }).count(), slow).toBe(1);

    await page.goto(`/orgs/${admin.org.id}/connectors`);
    const nameHeader = page.getByRole("columnheader", { name: /Name/ });
    await nameHeader.getByRole("button").click();
    await page.waitForURL(/sort=name&order=asc/);
    await expect.poll(() => nameHeader.getAttribute("aria-sort"), slow).toBe("ascending");
    await expect.poll(async () => (await names())[0], slow).toBe("Billing Alpha");
    await nameHeader.getByRole("button").click();
    await page.waitForURL(/order=desc/);
    await expect.poll(async () => (await names())[0], slow).toBe("Conn 060");

    await page.getByRole("link", { name: "Next page" }).click();
    await page.waitForURL(/cursor=/);
    // Descending by name: 50 on the first page (Conn 060 … Conn 011), the rest here.
    await expect.poll(names, slow).toEqual([...Array.from({ length: 10 }, (_, i) => `Conn ${String(10 - i).padStart(3, "0")}`), "Billing Gamma", "Billing Beta", "Billing Alpha"]);
    await screenshot(page, "long-list-sorted-page-2");
  });

  it("bulk deletes the selected rows after a confirmation that names the count", async () => {
    await page.goto(`/orgs/${admin.org.id}/connectors?q=billing`);
    await expect.poll(() => rows().count(), slow).toBe(3);
    await page.getByRole("checkbox", { name: "Select every row of this page" }).click();
    await page.getByRole("checkbox", { name: "Select Billing Beta" }).click();
    await page.getByRole("button", { name: "Delete 2 connectors" }).click();
    const dialog = page.getByRole("alertdialog");
    await expect.poll(() => dialog.getByRole("heading").innerText(), slow).toBe("Delete 2 connectors?");
    expect(await dialog.innerText()).toContain("Billing Alpha, Billing Gamma.");
    await dialog.getByRole("button", { name: "Delete 2 connectors" }).click();
    await expect.poll(() => page.getByText("Delete: 2 connectors done.").count(), slow).toBe(1);
    await expect.poll(names, slow).toEqual(["Billing Beta"]);
    const left = await db().connector.findMany({ where: { orgId: admin.org.id, name: { startsWith: "Billing" } }, select: { name: true } });
    expect(left.map((c) => c.name)).toEqual(["Billing Beta"]);
    const audited = await db().auditEvent.count({ where: { orgId: admin.org.id, action: "connector.delete" } });
    expect(audited).toBe(2);
  });

  it("fits 390 px without sideways scroll", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/orgs/${admin.org.id}/connectors?sort=name`);
    await expect.poll(() => rows().count(), slow).toBe(50);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, "long-list-390");
  });
});
