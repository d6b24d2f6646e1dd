import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { ensureBuild, type RunningApp, startApp } from "@/tests/e2e/support/next-app";
import { launchBrowser, newContext, screenshot, seriousA11yViolations, signIn } from "@/tests/e2e/support/browser";
import { type SeededAdmin, seedAdmin, seedMember } from "@/tests/e2e/support/seed";
import { type Upstream, startMcpUpstream } from "@/tests/helpers/mcp-upstream";
import { db } from "@/lib/db/client";

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
let upstream: Upstream;

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
  [app, browser, admin, api, upstream] = await Promise.all([
    startApp({ databaseUrl: inject("databaseUrl") }),
    launchBrowser(),
    seedAdmin(),
    startCustomerApi(),
    startMcpUpstream({ tools: [{ name: "search_docs", description: "Search the docs" }], requireHeaders: { "x-docs-key": "s3cret-value" } }),
  ]);
  context = await newContext(browser, app.baseUrl);
  page = await context.newPage();
}, 600_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await app?.stop();
  await api?.close();
  await upstream?.close();
});

/** Ids read from the URLs the UI navigates to, for later steps. */
const ids = { org: "", workspace: "", server: "", connector: "", role: "" };

function idAfter(url: string, segment: string): string {
  const match = new RegExp(`/${segment}/([^/?#]+)`).exec(url);
  if (!match) throw new Error(`no /${segment}/<id> in ${url}`);
  return match[1];
}

async function toast(text: string | RegExp): Promise<void> {
  await page.locator("[data-sonner-toast]").filter({ hasText: text }).first().waitFor();
}

describe("admin UI", () => {
  it("signs in, creates an organization and a workspace", async () => {
    await signIn(page, admin.email, admin.password);
    await page.getByRole("button", { name: /Switch organization or workspace/ }).click();
    await page.getByRole("menuitem", { name: "New organization" }).click();
    await page.getByLabel("Name").fill("Acme Support");
    await expect(page.getByLabel("Slug").inputValue()).resolves.toBe("acme-support");
    await page.getByRole("button", { name: "Create organization" }).click();
    await page.waitForURL(/\/orgs\/[^/]+\/workspaces$/);
    ids.org = idAfter(page.url(), "orgs");
    await page.getByRole("heading", { name: "No workspaces yet" }).waitFor();
    await page.getByLabel("Name").fill("Helpdesk");
    await page.getByRole("switch", { name: "Tool whitelists" }).click();
    await page.getByRole("button", { name: "Create workspace" }).click();
    await page.waitForURL(/\/w\/[^/]+\/servers$/);
    ids.workspace = idAfter(page.url(), "w");
    await page.getByRole("heading", { name: "No MCP servers yet" }).waitFor();
    await screenshot(page, "01-workspace-created");
  });

  it("creates an http connector by importing an OpenAPI document", async () => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Connectors" }).click();
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
    await page.getByRole("button", { name: /^get_customer Get a customer by id GET/ }).click();
    await expect(page.getByLabel("Path").first().inputValue()).resolves.toBe("/customers/{id}");
    await screenshot(page, "03-http-connector-form");
    await page.getByRole("button", { name: "Create connector" }).click();
    await page.getByRole("heading", { level: 1, name: "Customers" }).waitFor();
    ids.connector = idAfter(page.url(), "connectors");
    await page.getByRole("link", { name: "Tools (2)" }).click();
    await page.getByRole("button", { name: /^get_customer Get a customer by id GET/ }).waitFor();
    await screenshot(page, "04-connector-tools");
  });

  it("connects an upstream MCP server with a secret header and a pinned protocol era, lists the discovered tools and protocol version, and reloads them", async () => {
    await page.goto(`/orgs/${ids.org}/connectors/new?type=mcp`);
    await page.getByLabel("Name", { exact: true }).fill("Docs");
    await page.getByLabel("MCP server URL").fill(upstream.url);
    await expect(page.getByLabel("Protocol era").inputValue()).resolves.toBe("auto");
    await page.getByLabel("Protocol era").selectOption("2025-11-25");
    await page.getByRole("button", { name: "Add header" }).click();
    await page.getByLabel("Header 1 name").fill("X-Docs-Key");
    await page.getByLabel("Header 1 value").fill("s3cret-value");
    await page.getByRole("button", { name: "Connect and discover tools" }).click();
    await page.getByRole("heading", { name: /Discovered tools/ }).waitFor();
    await page.getByText("search_docs").waitFor();
    await expect(page.getByText("Negotiated protocol version: 2025-11-25").count()).resolves.toBe(1);
    upstream.tools.push({ name: "get_page", description: "One page" });
    await page.getByRole("button", { name: "Reload tools" }).click();
    await toast("Reloaded: 2 tools");
    // Listed, and (tool approval being on for a new mcp connector) waiting for approval too.
    await page.getByRole("article", { name: "Change of get_page" }).waitFor();
    await screenshot(page, "05-mcp-connector-tools");
    await page.getByRole("navigation", { name: "Docs sections" }).getByRole("link", { name: "Settings" }).click();
    await page.getByText("X-Docs-Key: set").waitFor();
    await expect(page.getByLabel("Protocol era").inputValue()).resolves.toBe("2025-11-25");
    await expect(page.getByLabel("Transport").inputValue()).resolves.toBe("streamable-http");
    await expect(page.getByText("s3cret-value").count()).resolves.toBe(0);
  });

  it("creates an MCP role that allows one tool", async () => {
    await page.goto(`/orgs/${ids.org}/roles`);
    await page.getByLabel("Name").fill("Reader");
    await page.getByRole("button", { name: "Create role" }).click();
    await page.getByRole("heading", { level: 1, name: "Reader" }).waitFor();
    ids.role = idAfter(page.url(), "roles");
    await page.getByLabel("Search tools").fill("get_");
    await page.getByRole("checkbox", { name: "get_customer" }).click();
    await page.getByText("1 tool selected").waitFor();
    await screenshot(page, "06-role-whitelist");
    await page.getByRole("button", { name: "Save role" }).click();
    await toast("Role saved (1 tool)");
  });

  it("a second save of the role goes through; a save over somebody else's newer change is refused and says so", async () => {
    const roleName = async () => (await db().mcpRole.findFirstOrThrow({ where: { id: ids.role, orgId: ids.org }, select: { name: true } })).name;
    await page.getByLabel("Role name").fill("Readers");
    await page.getByRole("button", { name: "Save role" }).click();
    await expect.poll(roleName).toBe("Readers");
    // Another admin renames it meanwhile; this page still shows the version it saved.
    await db().mcpRole.update({ where: { id: ids.role, orgId: ids.org }, data: { name: "Renamed elsewhere" } });
    await page.getByLabel("Role name").fill("Readers again");
    await page.getByRole("button", { name: "Save role" }).click();
    await toast(/Somebody else changed this after you opened it, so your changes were not saved/);
    expect(await roleName()).toBe("Renamed elsewhere");
    await db().mcpRole.update({ where: { id: ids.role, orgId: ids.org }, data: { name: "Reader" } }); // the later steps pick it by name
  });

  it("creates an MCP server with the connector, shows its endpoint and client config, and tries a tool", async () => {
    await page.goto(`/w/${ids.workspace}/servers`);
    await page.getByLabel("Name").fill("Support");
    await page.getByRole("checkbox", { name: /Customers/ }).click();
    await page.getByRole("button", { name: "Create server" }).click();
    await page.getByRole("heading", { level: 1, name: "Support" }).waitFor();
    ids.server = idAfter(page.url(), "servers");
    await expect(page.locator("#endpoint-url").textContent()).resolves.toBe(`${app.baseUrl}/mcp/${ids.server}`);
    // OAuth is on by default: connecting by URL alone comes first, the API-key way second.
    await expect(page.getByRole("tabpanel", { name: "Claude Code" }).textContent()).resolves.toContain(`claude mcp add --transport http`);
    await page.getByRole("tab", { name: "With an API key" }).click();
    await expect(page.getByRole("tabpanel", { name: "Claude Desktop" }).textContent()).resolves.toContain("mcp-remote");
    await page.getByLabel("id (required)").fill("42");
    await page.getByRole("button", { name: "Call tool" }).click();
    const result = page.getByRole("region", { name: "Tool result" });
    await result.getByText("Ada Lovelace").waitFor();
    await expect(result.textContent()).resolves.toMatch(/OK.*in \d+ ms/);
    await screenshot(page, "07-server-try-tool");
  });

  it("adds an applied skill in a markdown editor with preview", async () => {
    await page.goto(`/w/${ids.workspace}/skills`);
    await page.getByRole("heading", { name: "No skills yet" }).waitFor();
    await page.getByRole("link", { name: "New skill" }).first().click();
    await page.getByLabel("Name").fill("Greeting");
    await page.locator("[aria-labelledby='skill-content-label'][contenteditable]").fill("Always **greet** the customer.");
    await page.getByRole("tab", { name: "Preview" }).click();
    await page.getByRole("tabpanel", { name: "Preview" }).locator("strong", { hasText: "greet" }).waitFor();
    await page.getByRole("button", { name: "Create skill" }).click();
    await page.getByRole("switch", { name: "Apply Greeting" }).waitFor();
    await expect(page.getByRole("switch", { name: "Apply Greeting" }).getAttribute("aria-checked")).resolves.toBe("true");
  });

  it("previews the server as a member who has the role", async () => {
    const member = await seedMember(ids.org, ids.workspace);
    await page.goto(`/w/${ids.workspace}/members`);
    await page.getByLabel(`MCP role of Member ${member.suffix}`).selectOption({ label: "Reader" });
    await toast(`Member ${member.suffix} now has the role Reader`);
    await page.goto(`/w/${ids.workspace}/preview`);
    await page.getByLabel("As").selectOption({ label: `Member ${member.suffix} (${member.email})` });
    await page.getByRole("button", { name: "Preview" }).click();
    const tools = page.getByRole("region", { name: /^Tools/ });
    await tools.getByText("get_customer").waitFor();
    await expect(tools.getByText("create_customer").count()).resolves.toBe(0);
    await page.getByRole("region", { name: "Composed instructions" }).getByText("the customer.").first().waitFor();
    await screenshot(page, "08-preview-member");
  });

  it("creates an API key, shows it once, the endpoint answers initialize with it, and revoking it needs a confirmation", async () => {
    await page.goto(`/w/${ids.workspace}/api-keys`);
    await page.getByLabel("Name").fill("Laptop");
    await page.getByRole("button", { name: "Create key" }).click();
    const shown = page.getByRole("dialog", { name: "Copy your new API key" });
    const key = (await shown.locator("#new-api-key").textContent()) ?? "";
    expect(key).toMatch(/^sb_/);
    await shown.getByRole("button", { name: "Copy key" }).click();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(key);
    await screenshot(page, "09-api-key-once");
    await shown.getByRole("button", { name: "I have stored the key" }).click();
    await expect(page.getByText(key).count()).resolves.toBe(0);

    const initialize = () =>
      fetch(`${app.baseUrl}/mcp/${ids.server}`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "e2e", version: "1" } } }),
      });
    const before = await initialize();
    expect(before.status).toBe(200);
    expect(await before.text()).toContain('"serverInfo"');

    await page.getByRole("button", { name: "Revoke Laptop" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Revoke Laptop?" });
    await screenshot(page, "10-revoke-confirm");
    await confirm.getByRole("button", { name: "Revoke key" }).click();
    await toast('Key "Laptop" revoked');
    await page.getByRole("row", { name: /Laptop/ }).getByText("Revoked").waitFor();
    expect((await initialize()).status).toBe(401);
  });

  it("edits the manual layer of the knowledge graph and sees it in the picture's list", async () => {
    await page.goto(`/orgs/${ids.org}/graph?connector=${ids.connector}`);
    await page.getByRole("button", { name: "Add entity" }).click();
    await page.getByLabel("Entity 1 key").fill("order");
    await page.getByLabel("Entity 1 label").fill("Order");
    await page.getByRole("button", { name: "Add relation" }).click();
    await page.getByLabel("Relation 1 from").fill("order");
    await page.getByLabel("Relation 1 kind").fill("placed by");
    await page.getByLabel("Relation 1 to").fill("customer");
    await page.getByRole("button", { name: "Save manual layer" }).click();
    await toast("Manual layer of Customers saved");
    await page.getByText(/· 1 relation$/).waitFor();
    await screenshot(page, "11-knowledge-graph");
  });

  it("main pages have no serious or critical accessibility violations (axe-core), in light and dark mode", async () => {
    const pages = [
      "/",
      `/orgs/new`,
      `/orgs/${ids.org}/connectors`,
      `/orgs/${ids.org}/connectors/new?type=http`,
      `/orgs/${ids.org}/connectors/new?type=mcp`,
      `/orgs/${ids.org}/connectors/${ids.connector}`,
      `/orgs/${ids.org}/connectors/${ids.connector}/tools`,
      `/orgs/${ids.org}/connectors/${ids.connector}/instructions`,
      `/orgs/${ids.org}/connectors/${ids.connector}/resources`,
      `/orgs/${ids.org}/roles/${ids.role}`,
      `/orgs/${ids.org}/roles`,
      `/orgs/${ids.org}/members`,
      `/orgs/${ids.org}/workspaces`,
      `/orgs/${ids.org}/audit`,
      `/orgs/${ids.org}/graph`,
      `/orgs/${ids.org}/settings`,
      `/w/${ids.workspace}/servers`,
      `/w/${ids.workspace}/servers/${ids.server}`,
      `/w/${ids.workspace}/preview`,
      `/w/${ids.workspace}/skills`,
      `/w/${ids.workspace}/skills/new`,
      `/w/${ids.workspace}/members`,
      `/w/${ids.workspace}/api-keys`,
      `/w/${ids.workspace}/settings`,
    ];
    const problems: Record<string, unknown> = {};
    for (const path of pages) {
      await page.emulateMedia({ colorScheme: "light" });
      await page.goto(path);
      await page.locator("main h1").first().waitFor();
      await page.waitForLoadState("networkidle"); // client-only parts (editors, the graph) are in
      // The theme follows the system setting: switch it in place and check the page again.
      for (const scheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.waitForFunction((dark) => document.documentElement.classList.contains("dark") === dark, scheme === "dark");
        const violations = await seriousA11yViolations(page);
        if (violations.length) problems[`${scheme} ${path}`] = violations;
      }
    }
    expect(problems, JSON.stringify(problems, null, 1)).toEqual({});
    // A bound, not a wait: 24 pages, each loaded once (≈5 s a load at load 14, measured by the
    // 390 px sweep) and checked by axe twice; 240 s ran out at load 4–10.
  }, 900_000);
});
