import http from "node:http";
import type { AddressInfo } from "node:net";
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
let api: { origin: string; close: () => Promise<void> };

/** The HTTP API the connector's tools call: a real server on 127.0.0.1, started by this test. */
async function startCustomerApi(): Promise<typeof api> {
  const server = http.createServer((req, res) => {
    const match = /^\/customers\/([^/?]+)/.exec(req.url ?? "");
    res.setHeader("content-type", "application/json");
    if (req.method === "GET" && match) res.end(JSON.stringify({ id: decodeURIComponent(match[1]), name: "Ada Lovelace" }));
    else res.writeHead(404).end(JSON.stringify({ error: "not found" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const CUSTOMER_API_YAML = (origin: string) => `openapi: 3.0.3
info: { title: Customer API, version: "1.0" }
servers: [{ url: "${origin}" }]
paths:
  /customers/{id}:
    get:
      operationId: get_customer
      summary: Get a customer by id
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
      responses: { "200": { description: ok } }
  /customers:
    post:
      operationId: create_customer
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: object, required: [name], properties: { name: { type: string } } }
      responses: { "201": { description: created } }
`;

beforeAll(async () => {
  await ensureBuild();
  [app, browser, admin, api] = await Promise.all([startApp({ databaseUrl: inject("databaseUrl") }), launchBrowser(), seedAdmin(), startCustomerApi()]);
  context = await newContext(browser, app.baseUrl);
  page = await context.newPage();
}, 600_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await app?.stop();
  await api?.close();
});

describe("admin UI", () => {
  it("signs in through the sign-in page and opens the organization", async () => {
    await signIn(page, admin.email, admin.password);
    await page.goto(`/orgs/${admin.org.id}/workspaces`);
    await expect(page.getByRole("heading", { level: 1, name: "Workspaces" }).isVisible()).resolves.toBe(true);
    await screenshot(page, "01-workspaces");
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it("creates an http connector by importing an OpenAPI document", async () => {
    await page.goto(`/orgs/${admin.org.id}/connectors`);
    await page.getByRole("heading", { name: "No connectors yet" }).waitFor();
    await page.getByRole("link", { name: "HTTP API" }).first().click();
    await page.getByLabel("Name", { exact: true }).fill("Customers");
    await page.getByRole("button", { name: "Import from OpenAPI" }).click();
    const dialog = page.getByRole("dialog", { name: "Import from OpenAPI" });
    await dialog.getByLabel("…or paste the document").fill(CUSTOMER_API_YAML(api.origin));
    await dialog.getByRole("button", { name: "Read document" }).click();
    await dialog.getByText("2 of 2 selected").waitFor();
    await screenshot(page, "02-openapi-import");
    await dialog.getByRole("button", { name: "Add 2 tools" }).click();
    await expect(page.getByLabel("Base URL").inputValue()).resolves.toBe(api.origin);
    await page.getByRole("button", { name: /^get_customer GET/ }).click();
    await expect(page.getByLabel("Path").first().inputValue()).resolves.toBe("/customers/{id}");
    await screenshot(page, "03-http-connector-form");
    await page.getByRole("button", { name: "Create connector" }).click();
    await page.getByRole("heading", { level: 1, name: "Customers" }).waitFor();
    await page.getByRole("link", { name: "Tools (2)" }).click();
    await page.getByRole("button", { name: /^get_customer GET/ }).waitFor();
    await screenshot(page, "04-connector-tools");
  });
});
