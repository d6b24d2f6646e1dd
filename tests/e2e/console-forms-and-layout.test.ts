import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { db } from "@/lib/db/client";
import { decryptJson } from "@/lib/crypto/secret-box";
import { createApiKeyFor, INSTANCE_KEY, makeMember, uniqueSuffix } from "@/tests/helpers/factories";
import { ensureBuild, type RunningApp, startApp } from "@/tests/e2e/support/next-app";
import { launchBrowser, newContext, screenshot, seriousA11yViolations, signIn } from "@/tests/e2e/support/browser";
import { type SeededAdmin, seedAdmin } from "@/tests/e2e/support/seed";
import { axeProblems, pathName, sweepNarrow } from "@/tests/e2e/support/page-sweep";

/**
 * The console's rough edges, in real Chromium against the production build: the graph in dark
 * mode, nothing scrolls sideways at 390 px, long names, forms that speak plainly, OpenAPI
 * import filling in the connector, stored-resource and secret-header dialogs, navigation — and
 * a member's path from signing in to a first call with their own key.
 */

/** 200 characters, as a person would name a workspace (words, not one token). */
/** Shared with the app, so this test can open the secret headers the app sealed. */
const SECRET_KEY = `e2e-console-${uniqueSuffix()}`;

const LONG_NAME = "Customer support and escalations for the northern European region including every partner ".repeat(3).slice(0, 200).trim();

let app: RunningApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let admin: SeededAdmin;
let adminKey: string;
let member: { userId: string; email: string; password: string };
const ids = { connector: "", server: "" };

async function apiCall(method: string, path: string, body?: unknown, token = INSTANCE_KEY): Promise<Record<string, unknown>> {
  const res = await fetch(`${app.baseUrl}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : {};
}

/** A connector with tools (derived graph entities), a server with it, a file and keys: pages with content. */
async function seedContent(): Promise<void> {
  const connector = await apiCall("POST", `/orgs/${admin.org.id}/connectors`, {
    type: "http",
    name: "CRM",
    config: { baseUrl: "https://crm.example.test" },
    tools: [
      { name: "get_customer", description: "One customer by id", request: { method: "GET", path: "/customers/{id}" }, inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } },
      { name: "list_orders", request: { method: "GET", path: "/orders" } },
    ],
  });
  ids.connector = String(connector.id);
  const server = await apiCall("POST", `/workspaces/${admin.workspace.id}/servers`, { name: "Support desk", connectorIds: [ids.connector] });
  ids.server = String(server.id);
  adminKey = (await createApiKeyFor({ id: admin.userId }, { id: admin.workspace.id, orgId: admin.org.id })).token;
  const form = new FormData();
  form.append("file", new Blob(["id,name\n1,Ada\n"], { type: "text/csv" }), "a-rather-long-file-name-for-the-quarterly-customer-export-2026.csv");
  form.append("tags", "exports");
  const upload = await fetch(`${app.baseUrl}/api/v1/workspaces/${admin.workspace.id}/files`, { method: "POST", headers: { authorization: `Bearer ${adminKey}` }, body: form });
  if (upload.status !== 201) throw new Error(`upload: ${upload.status} ${await upload.text()}`);
}

async function seedMemberWithPassword(): Promise<typeof member> {
  const suffix = uniqueSuffix();
  const email = `e2e-console-member-${suffix}@example.test`;
  const password = `e2e-password-${suffix}`;
  const user = await makeMember(admin, { role: "member", email, name: "Console Member", password });
  return { userId: user.id, email, password };
}

beforeAll(async () => {
  admin = await seedAdmin();
  await db().workspace.updateMany({ where: { id: admin.workspace.id, orgId: admin.org.id }, data: { name: LONG_NAME } });
  await ensureBuild();
  // A SECRET_KEY this test process shares, to decrypt the secret headers the app stores (by default each app generates its own).
  [app, browser] = await Promise.all([startApp({ databaseUrl: inject("databaseUrl"), env: { SECRET_KEY } }), launchBrowser()]);
  await seedContent();
  member = await seedMemberWithPassword();
  context = await newContext(browser, app.baseUrl);
  page = await context.newPage();
  await signIn(page, admin.email, admin.password);
}, 600_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await app?.stop();
});

async function toast(text: string | RegExp): Promise<void> {
  await page.locator("[data-sonner-toast]").filter({ hasText: text }).first().waitFor();
}

/** Relative luminance (0 black … 1 white) of a CSS rgb()/rgba() colour. */
function luminance(css: string): number {
  const [r, g, b] = (css.match(/[\d.]+/g) ?? ["0", "0", "0"]).slice(0, 3).map((v) => Number(v) / 255);
  const lin = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

describe("console fixes", () => {
  it("the knowledge graph in dark mode: dark boxes with light labels, visible zoom controls", async () => {
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto(`/orgs/${admin.org.id}/graph`);
    const node = page.locator(".react-flow__node").first();
    await node.waitFor();
    const colours = await page.evaluate(() => {
      const n = document.querySelector(".react-flow__node")!;
      const button = document.querySelector(".react-flow__controls-button")!;
      const icon = button.querySelector("svg")!;
      return {
        nodeBackground: getComputedStyle(n).backgroundColor,
        nodeText: getComputedStyle(n).color,
        buttonBackground: getComputedStyle(button).backgroundColor,
        icon: getComputedStyle(icon).fill,
      };
    });
    expect(luminance(colours.nodeBackground), JSON.stringify(colours)).toBeLessThan(0.1);
    expect(luminance(colours.nodeText), JSON.stringify(colours)).toBeGreaterThan(0.7);
    expect(luminance(colours.buttonBackground), JSON.stringify(colours)).toBeLessThan(0.1);
    expect(luminance(colours.icon), JSON.stringify(colours)).toBeGreaterThan(0.7);
    expect(await axeProblems(page, "console-01-graph-dark")).toEqual([]);
    await page.emulateMedia({ colorScheme: "light" });
  });

  it("a 200-character workspace name is cut in the switcher, in full on hover, and leaves the page title alone", async () => {
    await page.goto(`/w/${admin.workspace.id}/files`);
    const title = page.getByRole("heading", { level: 1, name: "Files" });
    await title.waitFor();
    const nav = page.getByRole("navigation", { name: "Main" });
    const switcher = nav.getByRole("button", { name: /Switch organization or workspace/ });
    const [navBox, switcherBox, titleBox] = await Promise.all([nav.boundingBox(), switcher.boundingBox(), title.boundingBox()]);
    expect(switcherBox!.x + switcherBox!.width).toBeLessThanOrEqual(navBox!.x + navBox!.width + 1);
    expect(titleBox!.x).toBeGreaterThanOrEqual(navBox!.x + navBox!.width);
    await expect(switcher.locator(`[title="${LONG_NAME}"]`).count()).resolves.toBe(1);
    await screenshot(page, "console-02-long-workspace-name");
  });

  it("the sidebar stays in place on a long page, and breadcrumbs lead back", async () => {
    await page.goto(`/orgs/${admin.org.id}/connectors/${ids.connector}/tools`);
    const crumbs = page.getByRole("navigation", { name: "Breadcrumb" });
    await crumbs.getByRole("link", { name: "Connectors" }).waitFor();
    await expect(crumbs.getByRole("link", { name: /^E2E Org/ }).count()).resolves.toBe(1);
    await page.evaluate(() => {
      const filler = document.createElement("div");
      filler.style.height = "4000px";
      document.querySelector("main")!.append(filler);
      window.scrollTo(0, 2500);
    });
    await expect.poll(() => page.evaluate(() => Math.round(document.querySelector("aside")!.getBoundingClientRect().top))).toBe(56);
    const labels = await page.getByRole("navigation", { name: "Main" }).getByRole("link").allTextContents();
    expect(labels.filter((l, i) => labels.indexOf(l) !== i)).toEqual([]);
  });

  it("inputs stop at the schema's length; a taken org slug is answered in words", async () => {
    await page.goto(`/w/${admin.workspace.id}/servers`);
    await expect(page.getByLabel("Name").getAttribute("maxlength")).resolves.toBe("200");
    const { slug } = await db().organization.findFirstOrThrow({ where: { id: admin.org.id }, select: { slug: true } });
    await page.goto("/orgs/new");
    await page.getByLabel("Name").fill("Second org");
    await page.getByLabel("Slug").fill(slug);
    await page.getByRole("button", { name: "Create organization" }).click();
    await page.getByText("This slug is already taken.", { exact: true }).waitFor();
    await expect(page.getByText(/unique value/).count()).resolves.toBe(0);
    expect(app.output()).not.toContain("duplicate key value");
  });

  it("/setup while signed in opens the overview", async () => {
    await page.goto("/setup");
    await page.waitForURL(`${app.baseUrl}/`);
    await page.getByRole("heading", { level: 1, name: "Overview" }).waitFor();
  });

  it("OpenAPI import names the connector from the title and asks for the headers its security schemes need; one header changes alone", async () => {
    await page.goto(`/orgs/${admin.org.id}/connectors/new?type=http`);
    await page.getByRole("button", { name: "Import from OpenAPI" }).click();
    const dialog = page.getByRole("dialog", { name: "Import from OpenAPI" });
    await dialog.getByLabel("…or paste the document").fill(`openapi: 3.0.3
info: { title: Billing API, version: "1" }
servers: [{ url: "https://billing.example.test" }]
components:
  securitySchemes:
    key: { type: apiKey, in: header, name: X-Billing-Key }
    token: { type: http, scheme: bearer }
paths:
  /invoices:
    get: { operationId: list_invoices, summary: List invoices, responses: { "200": { description: ok } } }
`);
    await dialog.getByRole("button", { name: "Read document" }).click();
    await dialog.getByText(/asks for X-Billing-Key and Authorization/).waitFor();
    await dialog.getByRole("button", { name: "Add 1 tool" }).click();
    await expect(page.getByLabel("Name", { exact: true }).inputValue()).resolves.toBe("Billing API");
    await expect(page.getByLabel("Header 1 name").inputValue()).resolves.toBe("X-Billing-Key");
    await expect(page.getByLabel("Header 2 name").inputValue()).resolves.toBe("Authorization");
    await page.getByLabel("Header 1 value").fill("key-one");
    await page.getByLabel("Header 2 value").fill("Bearer token-one");
    await screenshot(page, "console-03-openapi-headers");
    await page.getByRole("button", { name: "Create connector" }).click();
    await page.getByRole("heading", { level: 1, name: "Billing API" }).waitFor();
    const connectorId = /\/connectors\/([^/?#]+)/.exec(page.url())![1];

    await page.getByRole("button", { name: "Change headers" }).click();
    const change = page.getByRole("dialog", { name: "Change secret headers" });
    await change.getByLabel("New value of X-Billing-Key").fill("key-two");
    await change.getByRole("button", { name: "Save headers" }).click();
    await toast("Secret headers saved");
    const row = await db().connector.findFirstOrThrow({ where: { id: connectorId, orgId: admin.org.id }, select: { secretHeaders: true } });
    // Decrypt with the key the app was started with.
    vi.stubEnv("SECRET_KEY", SECRET_KEY);
    expect(decryptJson(row.secretHeaders!)).toEqual({ Authorization: "Bearer token-one", "X-Billing-Key": "key-two" });
  });

  it("stored resources: no error before typing, a duplicate URI must be acknowledged before saving, no internal jargon", async () => {
    await page.goto(`/orgs/${admin.org.id}/connectors/${ids.connector}/resources`);
    const add = async () => {
      await page.getByRole("button", { name: "Add resource" }).first().click();
      const dialog = page.getByRole("dialog", { name: "Add a stored resource" });
      await dialog.waitFor();
      return dialog;
    };
    let dialog = await add();
    await expect(dialog.getByText(/Skipped|not a valid/).count()).resolves.toBe(0);
    await expect(dialog.getByText(/fetchConfig/).count()).resolves.toBe(0);
    await dialog.getByLabel("URI").fill("crm://schema");
    await dialog.getByLabel("Name").fill("Schema");
    await dialog.getByLabel("Content (static text)").fill("The CRM schema.");
    await dialog.getByRole("button", { name: "Add resource" }).click();
    await toast('Resource "Schema" added');
    await dialog.waitFor({ state: "detached" });

    dialog = await add();
    await dialog.getByLabel("URI").fill("crm://schema");
    await dialog.getByLabel("Name").fill("Schema again");
    await dialog.getByText(/is already the URI of another resource/).waitFor();
    const save = dialog.getByRole("button", { name: "Add resource" });
    await expect(save.isDisabled()).resolves.toBe(true);
    await screenshot(page, "console-04-duplicate-uri");
    await dialog.getByRole("button", { name: "I understand, allow saving" }).click();
    await expect(save.isEnabled()).resolves.toBe(true);
    await dialog.getByRole("button", { name: "Cancel" }).click();
  });

  it("no page scrolls sideways at 390 px, and no navigation label is cut", async () => {
    const phone = await browser.newContext({ baseURL: app.baseUrl, viewport: { width: 390, height: 844 } });
    const p = await phone.newPage();
    try {
      await signIn(p, admin.email, admin.password);
      const pages = [
        "/",
        `/w/${admin.workspace.id}/files`,
        `/w/${admin.workspace.id}/api-keys`,
        `/orgs/${admin.org.id}/audit`,
        `/orgs/${admin.org.id}/connectors`,
        `/orgs/${admin.org.id}/connectors/${ids.connector}`,
        `/orgs/${admin.org.id}/connectors/${ids.connector}/tools`,
        `/orgs/${admin.org.id}/connectors/${ids.connector}/resources`,
        `/orgs/${admin.org.id}/graph`,
        `/orgs/${admin.org.id}/roles`,
        `/orgs/${admin.org.id}/members`,
        `/orgs/${admin.org.id}/workspaces`,
        `/orgs/${admin.org.id}/settings`,
        `/w/${admin.workspace.id}/servers`,
        `/w/${admin.workspace.id}/servers/${ids.server}`,
        `/w/${admin.workspace.id}/preview`,
        `/w/${admin.workspace.id}/skills`,
        `/w/${admin.workspace.id}/members`,
        `/w/${admin.workspace.id}/settings`,
        "/me/servers",
        "/me/api-keys",
        "/invitations",
      ];
      // Here with a 200-character workspace name in the switcher (every page is swept by page-accessibility).
      const problems = await sweepNarrow(p, pages, { prefix: "console", name: pathName({ org: admin.org.id, ws: admin.workspace.id, ...ids }) });
      await p.goto(`/w/${admin.workspace.id}/files`);
      await screenshot(p, "console-05-files-390");
      expect(problems, JSON.stringify(problems, null, 1)).toEqual({});
    } finally {
      await phone.close();
    }
  }, 400_000);

  it("a member finds their server, its URL and client configuration, makes a key, calls it, and the first step ticks", async () => {
    const memberContext = await newContext(browser, app.baseUrl);
    const m = await memberContext.newPage();
    try {
      await signIn(m, member.email, member.password);
      const steps = m.getByRole("region", { name: "Next steps" });
      await expect(steps.getByRole("link", { name: "Add a connector" }).count()).resolves.toBe(0);
      await steps.getByRole("link", { name: "Connect an MCP client" }).waitFor();
      await expect(steps.getByText("(done)").count()).resolves.toBe(0);

      await m.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "My MCP servers" }).click();
      const card = m.getByRole("region", { name: "Support desk" });
      await expect(card.locator(`#url-${ids.server}`).textContent()).resolves.toBe(`${app.baseUrl}/mcp/${ids.server}`);
      await card.getByRole("tab", { name: "Cursor" }).click();
      await expect(card.getByRole("tabpanel", { name: "Cursor" }).textContent()).resolves.toContain(`${app.baseUrl}/mcp/${ids.server}`);
      await card.getByText(/get_customer/).first().waitFor();
      await card.getByText("You have no key that opens this server yet.").waitFor();
      await screenshot(m, "console-06-my-servers");

      await card.getByRole("link", { name: "Create an API key" }).click();
      await m.getByLabel("Name").fill("My laptop");
      await m.getByRole("button", { name: "Create key" }).click();
      const key = (await m.getByRole("dialog", { name: "Copy your new API key" }).locator("#new-api-key").textContent()) ?? "";
      expect(key).toMatch(/^sb_/);
      await m.getByRole("button", { name: "I have stored the key" }).click();

      const call = await fetch(`${app.baseUrl}/mcp/${ids.server}`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "e2e", version: "1" } } }),
      });
      expect(call.status).toBe(200);
      await expect
        .poll(async () => {
          await m.goto("/");
          return m.getByRole("region", { name: "Next steps" }).getByText("(done)").count();
        })
        .toBe(1);

      const forbidden = await m.goto(`/w/${admin.workspace.id}/servers/${ids.server}`);
      expect(forbidden?.status()).toBe(403);
      await m.getByRole("heading", { level: 1, name: "You don't have access to this page" }).waitFor();
      await m.getByRole("main").getByRole("link", { name: "My MCP servers" }).waitFor();
      expect(await seriousA11yViolations(m)).toEqual([]);
      await screenshot(m, "console-07-no-access");
    } finally {
      await memberContext.close();
    }
  }, 120_000);
});
