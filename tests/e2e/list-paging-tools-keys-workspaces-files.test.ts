import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { db } from "@/lib/db/client";
import { createApiKey } from "@/lib/api-keys/api-keys";
import { CreateApiKeyBody } from "@/lib/api-keys/schemas";
import { createHttpConnector, makeFile, makeWorkspace, type Tenant, uniqueSuffix } from "@/tests/helpers/factories";
import { ensureBuild, type RunningApp, startApp } from "@/tests/e2e/support/next-app";
import { launchBrowser, newContext, screenshot, signIn } from "@/tests/e2e/support/browser";
import { type SeededAdmin, seedAdmin } from "@/tests/e2e/support/seed";

/**
 * The other long lists in real Chromium against the production build: a connector's 63 tools,
 * 57 API keys of one person, 58 workspaces and 30 files. Each is searched, sorted by its header
 * (files: by their filter form), paged, and bulk-changed after a confirmation naming the count;
 * none scrolls sideways at 390 px.
 */

let app: RunningApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let admin: SeededAdmin;
let connectorId: string;
let filesDir: string;

/** A loaded machine may take a while to answer a navigation or a bulk request. */
const slow = { timeout: 30_000 };
/** The first visit of a heavy page (63 tools, and their editor) on a cold server. */
const first = { timeout: 60_000 };
const pad = (i: number) => String(i).padStart(3, "0");
const texts = (cells: Locator) => cells.allInnerTexts();

beforeAll(async () => {
  filesDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-e2e-lists-"));
  admin = await seedAdmin();
  const tenant = { org: { id: admin.org.id } } as Tenant;
  const tools = [...Array.from({ length: 60 }, (_, i) => `tool_${pad(i + 1)}`), "billing_alpha", "billing_beta", "billing_gamma"];
  connectorId = await createHttpConnector(tenant, "Big API", tools);
  const caller = { kind: "user" as const, userId: admin.userId, apiKey: null };
  for (const name of [...Array.from({ length: 55 }, (_, i) => `key ${pad(i + 1)}`), "laptop alpha", "laptop beta"]) {
    await createApiKey(caller, admin.workspace.id, CreateApiKeyBody.parse({ name }));
  }
  const suffix = uniqueSuffix();
  const workspaceNames = [...Array.from({ length: 55 }, (_, i) => `Team ${pad(i + 1)}`), "Sales EU", "Sales US"];
  for (const [i, name] of workspaceNames.entries()) await makeWorkspace(admin.org.id, { name, slug: `ws-${suffix}-${i}` });
  const base = Date.now() - 60_000;
  const fileNames = [...Array.from({ length: 28 }, (_, i) => `doc-${String(i + 1).padStart(2, "0")}.txt`), "invoice-a.txt", "invoice-b.txt"];
  for (const [i, name] of fileNames.entries()) {
    await makeFile(admin, {
      id: `fl_${(0xb0000 + i).toString(16)}${suffix.replace(/[^0-9a-f]/g, "0").padEnd(19, "0").slice(0, 19)}`,
      ownerId: admin.userId, name, storageKey: "00000000-0000-0000-0000-000000000000", createdAt: new Date(base + i * 1000),
    });
  }
  await ensureBuild();
  // A files directory of this test's own, removed in afterAll (the 30 file rows are seeded without blobs).
  [app, browser] = await Promise.all([startApp({ databaseUrl: inject("databaseUrl"), env: { SWITCHBOARD_FILES_DIR: filesDir } }), launchBrowser()]);
  context = await newContext(browser, app.baseUrl);
  page = await context.newPage();
  await signIn(page, admin.email, admin.password);
}, 900_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await app?.stop();
  if (filesDir) fs.rmSync(filesDir, { recursive: true, force: true });
});

async function search(label: string, text: string) {
  const box = page.getByRole("searchbox", { name: label });
  await box.fill(text);
  await box.press("Enter");
  await page.waitForURL(new RegExp(`[?&]q=${encodeURIComponent(text)}`));
}

/** Sorts by a column header twice (ascending, then descending), checking its aria-sort. */
async function sortDescending(header: RegExp | string) {
  const th = page.getByRole("columnheader", { name: header });
  await th.getByRole("button").click();
  await page.waitForURL(/order=asc/);
  await expect.poll(() => th.getAttribute("aria-sort"), slow).toBe("ascending");
  await th.getByRole("button").click();
  await page.waitForURL(/order=desc/);
  await expect.poll(() => th.getAttribute("aria-sort"), slow).toBe("descending");
}

/** Selects every row of the page, unselects `keep`, and confirms the bulk action named `button`. */
async function bulk(keep: string, button: string, done: string) {
  await page.getByRole("checkbox", { name: "Select every row of this page" }).click();
  await page.getByRole("checkbox", { name: `Select ${keep}` }).click();
  await page.getByRole("button", { name: button }).click();
  const dialog = page.getByRole("alertdialog");
  await expect.poll(() => dialog.getByRole("heading").innerText(), slow).toBe(`${button}?`);
  await dialog.getByRole("button", { name: button }).press("Enter");
  await expect.poll(() => page.getByText(done).count(), slow).toBe(1);
}

describe("long lists beyond connectors", { timeout: 180_000 }, () => {
  it("my API keys: search, sort, page and bulk revoke", async () => {
    const names = () => texts(page.locator("tbody tr td:nth-child(2)"));
    await page.goto("/me/api-keys");
    await expect.poll(() => page.locator("tbody tr").count(), slow).toBe(50);
    await search("Search keys by name or prefix", "laptop");
    await expect.poll(async () => (await names()).sort(), slow).toEqual(["laptop alpha", "laptop beta"]);

    await page.goto("/me/api-keys");
    await sortDescending(/Name/);
    await expect.poll(async () => (await names()).slice(0, 3), slow).toEqual(["laptop beta", "laptop alpha", "key 055"]);
    await page.getByRole("link", { name: "Next page" }).click();
    await page.waitForURL(/cursor=/);
    await expect.poll(names, slow).toEqual(Array.from({ length: 7 }, (_, i) => `key ${pad(7 - i)}`));

    await page.goto("/me/api-keys?q=key%2000&sort=name");
    await expect.poll(() => page.locator("tbody tr").count(), slow).toBe(9);
    await bulk("key 009 (", "Revoke 8 API keys", "Revoke: 8 API keys done.");
    await expect.poll(() => page.locator("tbody tr").filter({ hasText: "Revoked" }).count(), slow).toBe(8);
    const revoked = await db().apiKey.findMany({ where: { userId: admin.userId, workspaceId: admin.workspace.id, revokedAt: { not: null } }, select: { name: true }, orderBy: { name: "asc" } });
    expect(revoked.map((k) => k.name)).toEqual(Array.from({ length: 8 }, (_, i) => `key ${pad(i + 1)}`));
    expect(await db().auditEvent.count({ where: { orgId: admin.org.id, action: "api_key.revoke" } })).toBe(8);
  });

  it("the org's workspaces: search, sort and page", async () => {
    const url = `/orgs/${admin.org.id}/workspaces`;
    const names = () => texts(page.locator("tbody tr td:nth-child(1)"));
    await page.goto(url);
    await expect.poll(() => page.locator("tbody tr").count(), slow).toBe(50);
    await search("Search workspaces", "sales");
    await expect.poll(async () => (await names()).sort(), slow).toEqual(["Sales EU", "Sales US"]);
    await search("Search workspaces", "no-such-team");
    await expect.poll(() => page.getByRole("status").filter({ hasText: "No results for “no-such-team”" }).count(), slow).toBe(1);

    await page.goto(url);
    await sortDescending(/Name/);
    await expect.poll(async () => (await names())[0], slow).toBe("Team 055");
    await page.getByRole("link", { name: "Next page" }).click();
    await page.waitForURL(/cursor=/);
    await expect.poll(names, slow).toEqual([...Array.from({ length: 5 }, (_, i) => `Team ${pad(5 - i)}`), "Sales US", "Sales EU", "Main"]);
  });

  it("a connector's tools: search, sort, page and bulk delete", async () => {
    const url = `/orgs/${admin.org.id}/connectors/${connectorId}/tools`;
    const rows = page.locator("tr[data-tool]");
    const names = () => texts(page.locator("tr[data-tool] td:nth-child(3) span.font-mono"));
    await page.goto(url);
    await page.getByRole("heading", { name: "Tools (63 tools)" }).waitFor(first).catch(async (e) => {
      await screenshot(page, "scaled-lists-tools-not-loaded");
      throw new Error(`${page.url()}: ${(await page.locator("body").innerText()).slice(0, 800)}`, { cause: e });
    });
    await expect.poll(() => rows.count(), slow).toBe(50);
    await search("Search tools", "billing");
    await expect.poll(names, slow).toEqual(["billing_alpha", "billing_beta", "billing_gamma"]);

    await page.goto(url);
    await sortDescending(/Tool/);
    await expect.poll(async () => (await names())[0], slow).toBe("tool_060");
    await page.getByRole("link", { name: "Next page" }).click();
    await page.waitForURL(/cursor=/);
    await expect.poll(names, slow).toEqual([...Array.from({ length: 10 }, (_, i) => `tool_${pad(10 - i)}`), "billing_gamma", "billing_beta", "billing_alpha"]);

    await page.goto(`${url}?q=billing`);
    await expect.poll(() => rows.count(), slow).toBe(3);
    await bulk("billing_beta", "Delete 2 tools", "Delete: 2 tools done.");
    await expect.poll(names, slow).toEqual(["billing_beta"]);
    const left = await db().tool.findMany({ where: { connectorId, orgId: admin.org.id, name: { startsWith: "billing" } }, select: { name: true } });
    expect(left.map((t) => t.name)).toEqual(["billing_beta"]);
    await screenshot(page, "scaled-lists-tools");
  });

  it("files: search and sort with the filters, page, and bulk delete by keyboard", async () => {
    const url = `/w/${admin.workspace.id}/files`;
    const names = () => texts(page.locator("tr[data-file-id] td:nth-child(2) span.font-medium"));
    await page.goto(url);
    await expect.poll(() => page.locator("tr[data-file-id]").count(), slow).toBe(25);
    await page.getByLabel("Name", { exact: true }).fill("invoice");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await page.waitForURL(/q=invoice/);
    await expect.poll(async () => (await names()).sort(), slow).toEqual(["invoice-a.txt", "invoice-b.txt"]);

    await page.goto(url);
    await page.getByLabel("Sort by").selectOption("name");
    await page.getByLabel("Order").selectOption("desc");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await page.waitForURL(/sort=name/);
    await expect.poll(async () => (await names()).slice(0, 3), slow).toEqual(["invoice-b.txt", "invoice-a.txt", "doc-28.txt"]);
    await page.getByRole("link", { name: "Next page" }).click();
    await page.waitForURL(/cursor=.*|.*cursor=/);
    await expect.poll(names, slow).toEqual(["doc-05.txt", "doc-04.txt", "doc-03.txt", "doc-02.txt", "doc-01.txt"]);

    // Bulk delete with the keyboard alone: Space on the checkboxes, Enter on the buttons.
    await page.goto(`${url}?q=doc-0`);
    await expect.poll(() => page.locator("tr[data-file-id]").count(), slow).toBe(9);
    await page.getByRole("checkbox", { name: "Select every row of this page" }).press("Space");
    await page.getByRole("checkbox", { name: "Select doc-09.txt" }).press("Space");
    await page.getByRole("button", { name: "Delete 8 files" }).press("Enter");
    const dialog = page.getByRole("alertdialog");
    await expect.poll(() => dialog.getByRole("heading").innerText(), slow).toBe("Delete 8 files?");
    await dialog.getByRole("button", { name: "Delete 8 files" }).press("Enter");
    await expect.poll(() => page.getByText("Delete: 8 files done.").count(), slow).toBe(1);
    await expect.poll(names, slow).toEqual(["doc-09.txt"]);
    expect(await db().file.count({ where: { workspaceId: admin.workspace.id, orgId: admin.org.id } })).toBe(22);

    // One file left on a page: "1 file".
    await page.getByRole("checkbox", { name: "Select doc-09.txt" }).press("Space");
    await expect.poll(() => page.getByRole("button", { name: "Delete 1 file", exact: true }).count(), slow).toBe(1);
  });

  it("fits 390 px without sideways scroll on each of these lists", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [url, name] of [
      [`/orgs/${admin.org.id}/connectors/${connectorId}/tools`, "tools"],
      ["/me/api-keys", "my-keys"],
      [`/orgs/${admin.org.id}/workspaces`, "workspaces"],
      [`/w/${admin.workspace.id}/files`, "files"],
    ]) {
      await page.goto(url);
      await page.locator("tbody tr").first().waitFor(slow);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect({ url, overflow }).toEqual({ url, overflow: 0 });
      await screenshot(page, `scaled-lists-390-${name}`);
    }
  });
});
