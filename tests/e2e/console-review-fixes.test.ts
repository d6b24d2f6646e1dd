import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { INSTANCE_KEY, makeFile, uniqueSuffix } from "@/tests/helpers/factories";
import { ensureBuild, type RunningApp, startApp } from "@/tests/e2e/support/next-app";
import { launchBrowser, screenshot, signIn, signedInPage } from "@/tests/e2e/support/browser";
import { type SeededAdmin, seedAdmin } from "@/tests/e2e/support/seed";

/**
 * What a reviewer driving the console in Chromium found, fixed, against the production build:
 * a 404 in the console's words, Enter calling a tool, focus back on the button that opened the
 * OpenAPI import, the files' order control telling the truth, a menu button on a phone, and a
 * refused probe path said at its field.
 */

let app: RunningApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let admin: SeededAdmin;
let api: { origin: string; calls: string[]; close: () => Promise<void> };
const ids = { connector: "", server: "" };
const slow = { timeout: 30_000 };

/** The HTTP API the connector's tools call: answers every request and remembers it. */
async function startApi(): Promise<typeof api> {
  const calls: string[] = [];
  const server = http.createServer((req, res) => {
    calls.push(`${req.method} ${req.url}`);
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ answered: req.url }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, calls, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function apiCall(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${app.baseUrl}/api/v1${path}`, { method, headers: { authorization: `Bearer ${INSTANCE_KEY}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : {};
}

/** The name of the focused element (its text), to see where keyboard focus went. */
const focused = (p: Page) => p.evaluate(() => (document.activeElement === document.body ? "<body>" : (document.activeElement?.textContent ?? "").trim()));

/**
 * Opens a dialog (by `open`) and closes it once per way in `closers` ("Escape" or the name of a
 * button in it, pressed by keyboard), each time expecting focus on `target`, not on <body>.
 */
async function closesBackTo(target: Locator, dialog: Locator, open: () => Promise<void>, closers: string[]): Promise<void> {
  for (const close of closers) {
    await open();
    await dialog.waitFor(slow);
    if (close === "Escape") await page.keyboard.press("Escape");
    else await dialog.getByRole("button", { name: close, exact: true }).press("Enter");
    await dialog.waitFor({ state: "detached", ...slow });
    // Where focus is, in words, so a failure says where it went; well inside the test's 30 s.
    const focus = () => target.evaluate((el) => (el === document.activeElement ? "the target" : (document.activeElement?.outerHTML.slice(0, 80) ?? "nothing")));
    await expect.poll(focus, { timeout: 10_000 }).toBe("the target");
  }
}

/** Focuses `opener` and presses Enter on it. */
const pressOpener = (opener: Locator) => async () => {
  await opener.focus();
  await page.keyboard.press("Enter");
};

beforeAll(async () => {
  admin = await seedAdmin();
  const base = Date.now() - 60_000;
  for (const [i, name] of ["oldest.txt", "middle.txt", "newest.txt"].entries()) {
    await makeFile(admin, { ownerId: admin.userId, name, size: 10 - i, createdAt: new Date(base + i * 1000), storageKey: `missing-${uniqueSuffix()}` });
  }
  await ensureBuild();
  [app, browser, api] = await Promise.all([startApp({ databaseUrl: inject("databaseUrl") }), launchBrowser(), startApi()]);
  const connector = await apiCall("POST", `/orgs/${admin.org.id}/connectors`, {
    type: "http",
    name: "CRM",
    config: { baseUrl: api.origin },
    tools: [
      { name: "get_customer", request: { method: "GET", path: "/customers/{id}" }, inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } },
      { name: "find_orders", request: { method: "POST", path: "/orders/search" }, inputSchema: { type: "object", properties: { filter: { type: "object" } }, required: ["filter"] } },
    ],
  });
  ids.connector = String(connector.id);
  ids.server = String((await apiCall("POST", `/workspaces/${admin.workspace.id}/servers`, { name: "Support desk", connectorIds: [ids.connector] })).id);
  ({ context, page } = await signedInPage(browser, app.baseUrl, admin.email, admin.password));
}, 900_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await app?.stop();
  await api?.close();
});

describe("the reviewer's console defects", () => {
  it("an unknown address is a 404 in the console's words, with a link back reached by Tab", async () => {
    const res = await page.goto("/servers/doesnotexist");
    expect(res?.status()).toBe(404);
    await page.getByRole("heading", { level: 1, name: "Page not found" }).waitFor(slow);
    await expect(page.title()).resolves.toBe("Page not found · Switchboard");
    await expect(page.getByText("This page could not be found").count()).resolves.toBe(0);
    await screenshot(page, "review-404-unknown-address");
    const back = page.getByRole("link", { name: "Go to the overview" });
    for (let i = 0; i < 5 && !(await back.evaluate((a) => a === document.activeElement)); i++) await page.keyboard.press("Tab");
    await expect(back.evaluate((a) => a === document.activeElement)).resolves.toBe(true);
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { level: 1, name: "Overview" }).waitFor(slow);
  });

  it("a server or connector that does not exist is a 404 inside the console, leading back to its list", async () => {
    for (const [path, list, listPath] of [
      [`/w/${admin.workspace.id}/servers/doesnotexist`, "MCP servers", `/w/${admin.workspace.id}/servers`],
      [`/orgs/${admin.org.id}/connectors/doesnotexist/tools`, "Connectors", `/orgs/${admin.org.id}/connectors`],
    ]) {
      const res = await page.goto(path);
      expect({ path, status: res?.status() }).toEqual({ path, status: 404 });
      await page.getByRole("heading", { level: 1, name: "Page not found" }).waitFor(slow);
      await page.getByRole("navigation", { name: "Main" }).waitFor();
      await expect(page.getByRole("main").getByText(/does not exist/).count()).resolves.toBe(1);
      await page.getByRole("main").getByRole("link", { name: "Go to the overview" }).waitFor();
      const back = page.getByRole("main").getByRole("link", { name: `Back to ${list}` });
      await back.focus();
      await page.keyboard.press("Enter");
      await page.waitForURL(`${app.baseUrl}${listPath}`, slow);
    }
    await page.goto(`/w/${admin.workspace.id}/servers/doesnotexist`);
    await screenshot(page, "review-404-missing-server");
  });

  it("Try a tool: Enter in a one-line argument calls it; in a JSON text area Enter is a newline and Ctrl+Enter calls it", async () => {
    await page.goto(`/w/${admin.workspace.id}/servers/${ids.server}`);
    const result = page.getByRole("region", { name: "Tool result" });
    await page.getByLabel("id (required)").fill("42");
    await page.getByLabel("id (required)").press("Enter");
    await result.getByText("/customers/42").waitFor(slow);
    expect(api.calls).toContain("GET /customers/42");

    await page.getByLabel("Tool", { exact: true }).selectOption("find_orders");
    const filter = page.getByLabel("filter (required)");
    await filter.click();
    await page.keyboard.type('{"status":');
    await page.keyboard.press("Enter");
    await page.keyboard.type('"open"}');
    await expect(filter.inputValue()).resolves.toBe('{"status":\n"open"}');
    expect(api.calls.filter((c) => c.startsWith("POST"))).toEqual([]);
    await page.keyboard.press("Control+Enter");
    await result.getByText("/orders/search").waitFor(slow);
    expect(api.calls.filter((c) => c.startsWith("POST"))).toEqual(["POST /orders/search"]);
    await screenshot(page, "review-try-tool-enter");
  });

  it("closing Import from OpenAPI by Escape or Cancel puts focus back on the button that opened it", async () => {
    await page.goto(`/orgs/${admin.org.id}/connectors/new?type=http`);
    const opener = page.getByRole("button", { name: "Import from OpenAPI" });
    const dialog = page.getByRole("dialog", { name: "Import from OpenAPI" });
    for (const close of ["Escape", "Cancel"] as const) {
      await opener.focus();
      await page.keyboard.press("Enter");
      await dialog.waitFor();
      if (close === "Escape") await page.keyboard.press("Escape");
      else await dialog.getByRole("button", { name: "Cancel" }).press("Enter");
      await dialog.waitFor({ state: "detached" });
      await expect.poll(() => focused(page), slow).toBe("Import from OpenAPI");
    }
  });

  it("closing the secret-headers dialog by Escape, Close or Cancel puts focus back on the button that opened it", async () => {
    await page.goto(`/orgs/${admin.org.id}/connectors/${ids.connector}`);
    const opener = page.getByRole("button", { name: "Add headers", exact: true });
    await closesBackTo(opener, page.getByRole("dialog", { name: "Change secret headers" }), pressOpener(opener), ["Escape", "Close", "Cancel"]);
  });

  it("closing the stored-resource dialog by Escape, Close or Cancel puts focus back on the button that opened it", async () => {
    await page.goto(`/orgs/${admin.org.id}/connectors/${ids.connector}/resources`);
    const opener = page.getByRole("button", { name: "Add resource", exact: true });
    await closesBackTo(opener, page.getByRole("dialog", { name: "Add a stored resource" }), pressOpener(opener), ["Escape", "Close", "Cancel"]);
  });

  it("closing the command palette by Escape or Close puts focus back on the Jump to… button, or on the field Ctrl+K opened it from", async () => {
    await page.goto(`/w/${admin.workspace.id}/files`);
    const opener = page.getByRole("button", { name: /^Jump to/ });
    const dialog = page.getByRole("dialog", { name: "Jump to", exact: true });
    await closesBackTo(opener, dialog, pressOpener(opener), ["Escape", "Close"]);
    // Opened by Ctrl+K from a field, it gives focus back to that field.
    const field = page.getByLabel("Tag", { exact: true });
    const shortcut = async () => {
      await field.focus();
      await page.keyboard.press("Control+k");
    };
    await closesBackTo(field, dialog, shortcut, ["Escape", "Close"]);
  });

  it("closing the new API key's dialog (Escape, Close or 'I have stored the key') puts focus on Create key, ready for the next one", async () => {
    await page.goto(`/w/${admin.workspace.id}/api-keys`);
    const submit = page.getByRole("button", { name: "Create key", exact: true });
    let n = 0;
    const create = async () => {
      await page.locator("#key-name").fill(`Laptop ${++n}`);
      await submit.focus();
      await page.keyboard.press("Enter");
    };
    await closesBackTo(submit, page.getByRole("dialog", { name: "Copy your new API key" }), create, ["Escape", "Close", "I have stored the key"]);
  });

  it("the files' Order shows the order applied (newest first by default) and changing it reorders the list", async () => {
    const names = () => page.locator("tr[data-file-id] td:nth-child(2) span.font-medium").allInnerTexts();
    await page.goto(`/w/${admin.workspace.id}/files`);
    await expect.poll(names, slow).toEqual(["newest.txt", "middle.txt", "oldest.txt"]);
    await expect(page.getByLabel("Order").inputValue()).resolves.toBe("desc");
    await expect(page.getByLabel("Sort by").locator("option:checked").innerText()).resolves.toBe("Upload time");
    await page.getByLabel("Order").selectOption("asc");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await page.waitForURL(/order=asc/);
    await expect.poll(names, slow).toEqual(["oldest.txt", "middle.txt", "newest.txt"]);
    await expect(page.getByLabel("Order").inputValue()).resolves.toBe("asc");
    // A sort chosen without an order is ascending, and says so.
    await page.goto(`/w/${admin.workspace.id}/files?sort=size`);
    await expect.poll(names, slow).toEqual(["newest.txt", "middle.txt", "oldest.txt"]);
    await expect(page.getByLabel("Order").inputValue()).resolves.toBe("asc");
  });

  it("at 390 px the navigation is behind a Menu button (aria-expanded, Escape closes it and focus returns); at desktop width it is shown as before", async () => {
    await expect(page.getByRole("button", { name: "Menu" }).isVisible()).resolves.toBe(false);
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Files", exact: true }).isVisible()).resolves.toBe(true);

    const phone = await browser.newContext({ baseURL: app.baseUrl, viewport: { width: 390, height: 844 } });
    try {
      const p = await phone.newPage();
      await signIn(p, admin.email, admin.password);
      await p.goto(`/w/${admin.workspace.id}/files`);
      const nav = p.getByRole("navigation", { name: "Main" });
      const menu = nav.getByRole("button", { name: "Menu" });
      const filesLink = nav.getByRole("link", { name: "Files", exact: true });
      await expect(menu.getAttribute("aria-expanded")).resolves.toBe("false");
      const controls = await menu.getAttribute("aria-controls");
      await expect(p.locator(`#${controls}`).count()).resolves.toBe(1);
      await expect(filesLink.isVisible()).resolves.toBe(false);
      // The page's own heading is on the first screen, not pushed below two dozen links.
      const heading = await p.getByRole("heading", { level: 1, name: "Files" }).boundingBox();
      expect(heading!.y + heading!.height).toBeLessThan(844);
      await screenshot(p, "review-390-menu-closed");

      await menu.focus();
      await p.keyboard.press("Enter");
      await expect(menu.getAttribute("aria-expanded")).resolves.toBe("true");
      await filesLink.waitFor({ state: "visible" });
      await screenshot(p, "review-390-menu-open");
      await p.keyboard.press("Tab");
      await p.keyboard.press("Escape");
      await expect(menu.getAttribute("aria-expanded")).resolves.toBe("false");
      await expect(filesLink.isVisible()).resolves.toBe(false);
      await expect(focused(p)).resolves.toBe("Menu");

      await menu.click();
      await nav.getByRole("link", { name: "API keys", exact: true }).click();
      await p.waitForURL(/\/api-keys$/);
      await expect.poll(() => menu.getAttribute("aria-expanded"), slow).toBe("false");
    } finally {
      await phone.close();
    }
  });

  it("a probe path the API refuses is said under the path field, not as a banner", async () => {
    await page.goto(`/orgs/${admin.org.id}/connectors/${ids.connector}/health`);
    const path = page.getByLabel("Path below the base URL");
    await path.fill("health");
    await page.getByRole("button", { name: "Save probe" }).click();
    const error = page.locator("#probe-path-error");
    await expect.poll(() => error.textContent(), slow).toBe("The path must start with '/'.");
    await expect(path.getAttribute("aria-invalid")).resolves.toBe("true");
    await expect(path.getAttribute("aria-describedby")).resolves.toContain("probe-path-error");
    await expect(path.evaluate((input) => input === document.activeElement)).resolves.toBe(true);
    await expect(page.getByRole("alert").filter({ hasText: /must start with/ }).count()).resolves.toBe(0);
    await screenshot(page, "review-probe-path-error");
    await path.fill("/health");
    await page.getByRole("button", { name: "Save probe" }).click();
    await page.getByText("Probe saved.").waitFor(slow);
    await expect.poll(() => error.count(), slow).toBe(0);
  });
});
