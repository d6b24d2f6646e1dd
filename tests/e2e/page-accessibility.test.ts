import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { INSTANCE_KEY, makeMember, uniqueSuffix } from "@/tests/helpers/factories";
import { type HttpApiStub, startHttpApi } from "@/tests/helpers/http-api-stub";
import { connectV1 } from "@/tests/helpers/mcp-clients";
import { ensureBuild, type RunningApp, startApp } from "@/tests/e2e/support/next-app";
import { launchBrowser, newContext, screenshot, signIn } from "@/tests/e2e/support/browser";
import { consoleUrls } from "@/tests/e2e/support/console-pages";
import { pathName, sweepAxe, sweepNarrow } from "@/tests/e2e/support/page-sweep";
import { type SeededAdmin, seedAdmin } from "@/tests/e2e/support/seed";

/**
 * The acceptance pass of the operators' console: "Playwright + axe in light and dark on every
 * page (the graph included), plus a 390 px pass over every page asserting no horizontal scroll;
 * screenshots kept as test artifacts" (test-results/e2e/acceptance-*.png) — every page file
 * under app/ (tests/e2e/support/console-pages.ts, kept complete by a unit test) — and "a member's
 * path: signs in, finds their server URL, configures a client, calls a tool".
 */

let app: RunningApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let admin: SeededAdmin;
let upstream: HttpApiStub;
let member: { email: string; password: string };
const ids = { connector: "", server: "", role: "", skill: "" };

async function apiCall(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${app.baseUrl}/api/v1${path}`, { method, headers: { authorization: `Bearer ${INSTANCE_KEY}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : {};
}

/** Content on every page: a connector whose tool answers (a real HTTP API), a server, a role, a skill, a member. */
async function seedContent(): Promise<void> {
  upstream = await startHttpApi();
  upstream.route("GET", "/customers/42", (_req, res) => void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: "42", name: "Ada Lovelace" })));
  const connector = await apiCall("POST", `/orgs/${admin.org.id}/connectors`, {
    type: "http",
    name: "CRM",
    config: { baseUrl: upstream.origin },
    tools: [
      { name: "get_customer", description: "One customer by id", request: { method: "GET", path: "/customers/{id}" }, inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } },
      // A long title and path, as imported APIs have: their one-line summaries must not widen a phone's page.
      { name: "get_line_item_fulfilment", title: "Fulfilment status of one line item of a customer's order", request: { method: "GET", path: "/customers/{id}/orders/{orderId}/line-items/{lineItemId}/fulfilment-status" }, inputSchema: { type: "object", properties: { id: { type: "string" }, orderId: { type: "string" }, lineItemId: { type: "string" } }, required: ["id", "orderId", "lineItemId"] } },
    ],
  });
  ids.connector = String(connector.id);
  // A long name, listed on the server's page (connector health): it must not widen a phone's page either.
  const billing = await apiCall("POST", `/orgs/${admin.org.id}/connectors`, {
    type: "http",
    name: "Billing and invoicing for customer accounts (production)",
    config: { baseUrl: upstream.origin },
    tools: [{ name: "list_invoices", description: "Invoices", request: { method: "GET", path: "/invoices" }, inputSchema: { type: "object", properties: {} } }],
  });
  ids.server = String((await apiCall("POST", `/workspaces/${admin.workspace.id}/servers`, { name: "Support desk", connectorIds: [ids.connector, String(billing.id)] })).id);
  ids.role = String((await apiCall("POST", `/orgs/${admin.org.id}/roles`, { name: "Support agent", tools: [] })).id);
  ids.skill = String((await apiCall("POST", `/workspaces/${admin.workspace.id}/skills`, { name: "Refunds", content: "# Refunds\nCheck the order first." })).id);
  const suffix = uniqueSuffix();
  member = { email: `e2e-acceptance-member-${suffix}@example.test`, password: `e2e-password-${suffix}` };
  await makeMember(admin, { role: "member", email: member.email, name: "Mia Member", password: member.password });
}

/** The ids of what seedContent made, for the page list (tests/e2e/support/console-pages.ts). */
const seeded = () => ({ org: admin.org.id, workspace: admin.workspace.id, ...ids });
const sweep = () => ({ prefix: "acceptance", name: pathName({ org: admin.org.id, ws: admin.workspace.id, ...ids }) });

beforeAll(async () => {
  admin = await seedAdmin();
  await ensureBuild();
  // A generous connect timeout: on a busy test machine the default 1 s fails page renders at random.
  [app, browser] = await Promise.all([startApp({ databaseUrl: inject("databaseUrl"), env: { DB_CONNECT_TIMEOUT_MS: "10000" } }), launchBrowser()]);
  await seedContent();
  context = await newContext(browser, app.baseUrl);
  page = await context.newPage();
  await signIn(page, admin.email, admin.password);
}, 600_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await app?.stop();
  await upstream?.close();
});

describe("console acceptance", () => {
  it("axe finds no serious violation on any page, in light and in dark", async () => {
    const problems = await sweepAxe(page, consoleUrls(seeded()).signedIn, sweep());
    expect(problems, JSON.stringify(problems, null, 1)).toEqual({});
  }, 1_200_000); // ~50 page loads with axe twice each: 10 minutes on a busy machine

  it("no page scrolls sideways at 390 px", async () => {
    const phone = await browser.newContext({ baseURL: app.baseUrl, viewport: { width: 390, height: 844 } });
    const p = await phone.newPage();
    try {
      await signIn(p, admin.email, admin.password);
      const problems = await sweepNarrow(p, consoleUrls(seeded()).signedIn, sweep());
      expect(problems, JSON.stringify(problems, null, 1)).toEqual({});
    } finally {
      await phone.close();
    }
  }, 600_000);

  it("the pages seen signed out (sign-in, setup, an invitation link) pass axe in light and dark and fit 390 px", async () => {
    const { signedOut } = consoleUrls(seeded());
    const desktop = await newContext(browser, app.baseUrl);
    const phone = await browser.newContext({ baseURL: app.baseUrl, viewport: { width: 390, height: 844 } });
    try {
      const problems = {
        ...(await sweepAxe(await desktop.newPage(), signedOut, { ...sweep(), prefix: "acceptance-signed-out" })),
        ...(await sweepNarrow(await phone.newPage(), signedOut, { ...sweep(), prefix: "acceptance-signed-out" })),
      };
      expect(problems, JSON.stringify(problems, null, 1)).toEqual({});
    } finally {
      await desktop.close();
      await phone.close();
    }
  }, 300_000);

  it("a member signs in, finds their server's URL, configures a client with the snippet and a key they make, and calls a tool", async () => {
    const memberContext = await newContext(browser, app.baseUrl);
    const m = await memberContext.newPage();
    try {
      await signIn(m, member.email, member.password);
      await m.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "My MCP servers" }).click();
      const card = m.getByRole("region", { name: "Support desk" });
      // OAuth is on by default: the URL-only way is the first tab, the key way the second.
      await card.getByRole("tab", { name: "With an API key" }).click();
      await card.getByRole("tab", { name: "Cursor" }).click();
      const snippet = JSON.parse((await card.getByRole("tabpanel", { name: "Cursor" }).locator("pre").textContent()) ?? "{}");
      const [config] = Object.values(snippet.mcpServers) as { url: string; headers: { Authorization: string } }[];
      expect(config.url).toBe(`${app.baseUrl}/mcp/${ids.server}`);

      await card.getByRole("link", { name: "Create an API key" }).click();
      await m.getByLabel("Name").fill("My editor");
      await m.getByRole("button", { name: "Create key" }).click();
      const key = (await m.getByRole("dialog", { name: "Copy your new API key" }).locator("#new-api-key").textContent()) ?? "";
      await m.getByRole("button", { name: "I have stored the key" }).click();

      const authorization = config.headers.Authorization.replace(/<[^>]+>|\$\{[^}]+\}|YOUR_API_KEY/, key);
      const client = await connectV1(config.url, null, { authorization });
      try {
        const tools = await client.client.listTools();
        const name = tools.tools.map((t) => t.name).find((n) => n.endsWith("get_customer"));
        expect(name).toBeDefined();
        const result = await client.client.callTool({ name: name!, arguments: { id: "42" } });
        expect(result.isError).not.toBe(true);
        expect(JSON.stringify(result.content)).toContain("Ada Lovelace");
      } finally {
        await client.close();
      }
      expect(upstream.seen.some((r) => r.url === "/customers/42")).toBe(true);
      await screenshot(m, "acceptance-member-my-servers");
    } finally {
      await memberContext.close();
    }
  }, 180_000);
});
