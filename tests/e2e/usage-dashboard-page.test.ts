import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { INSTANCE_CALLER } from "@/lib/auth/caller";
import { createConnector } from "@/lib/connectors/create-connector";
import { CreateConnectorBody } from "@/lib/connectors/schemas";
import { createServer } from "@/lib/servers/servers";
import { CreateServerBody } from "@/lib/servers/schemas";
import { ensureBuild, type RunningApp, startApp } from "@/tests/e2e/support/next-app";
import { launchBrowser, newContext, screenshot, seriousA11yViolations, signIn } from "@/tests/e2e/support/browser";
import { type SeededAdmin, seedAdmin } from "@/tests/e2e/support/seed";
import { axeProblems, narrowProblems, showScheme } from "@/tests/e2e/support/page-sweep";
import { createApiKeyFor, createWorkspace, uniqueSuffix } from "@/tests/helpers/factories";
import { startHttpApi, type HttpApiStub } from "@/tests/helpers/http-api-stub";
import { connectV1 } from "@/tests/helpers/mcp-clients";

/**
 * Issue 14 points 1–2 in real Chromium: a known sequence of tool calls made through the
 * running app's MCP endpoint shows up on the usage page (totals, failing tool with its
 * scrubbed error, sortable tables), readable at 390 px and in dark mode; the connector shows
 * as healthy in the list and on the server page, and "Test connection" reports its result.
 */

const SECRET = "Bearer e2e-usage-7c1f0b93aa";
// The app must open the connector's secret headers this test process sealed.
const SECRET_KEY = `e2e-usage-${uniqueSuffix()}`;

let app: RunningApp;
let browser: Browser;
let admin: SeededAdmin;
let upstream: HttpApiStub;
let connectorId: string;
let serverId: string;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  await ensureBuild();
  // This process seals the connector's secret headers: with the key the app gets below.
  vi.stubEnv("SECRET_KEY", SECRET_KEY);
  upstream = await startHttpApi();
  upstream.route("GET", "/v1/", (_req, res) => res.writeHead(200).end("ok"));
  upstream.route("GET", "/v1/lookup", (_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"found":true}'));
  upstream.route("GET", "/v1/broken", (req, res) => res.writeHead(502, { "content-type": "text/plain" }).end(`gateway says no to ${req.headers.authorization}`));
  // Usage flushed every 200 ms (default 10 s) so the page shows the calls soon; SECRET_KEY: see above.
  [app, browser, admin] = await Promise.all([startApp({ databaseUrl: inject("databaseUrl"), env: { USAGE_FLUSH_INTERVAL_MS: "200", SECRET_KEY } }), launchBrowser(), seedAdmin()]);
  const tools = ["lookup", "broken"].map((name) => ({ name, request: { method: "GET", path: `/${name}` } }));
  const body = CreateConnectorBody.parse({ type: "http", name: "Inventory", config: { baseUrl: `${upstream.origin}/v1`, headers: { Authorization: SECRET } }, tools });
  connectorId = (await createConnector(INSTANCE_CALLER, admin.org.id, body)).id;
  serverId = (await createServer(INSTANCE_CALLER, admin.workspace.id, CreateServerBody.parse({ name: "Warehouse", connectorIds: [connectorId] }), "http://localhost")).id;
  const { token } = await createApiKeyFor({ id: admin.userId }, { id: admin.workspace.id, orgId: admin.org.id });
  const mcp = await connectV1(`${app.baseUrl}/mcp/${serverId}`, token);
  try {
    for (let i = 0; i < 3; i++) await mcp.client.callTool({ name: "lookup", arguments: {} });
    for (let i = 0; i < 2; i++) await mcp.client.callTool({ name: "broken", arguments: {} });
  } finally {
    await mcp.close();
  }
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

/** The usage page once the app's flush has written the calls (every 200 ms here). */
async function openUsage(path: string): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt++) {
    await page.goto(path);
    await page.getByRole("heading", { level: 1 }).waitFor();
    if ((await page.getByTestId("usage-total-calls").count()) > 0) return;
    await page.waitForTimeout(250);
  }
}


describe("the usage page", () => {
  it("shows the calls made, the error rate, the failing tool with its scrubbed error, and sorts its tables", async () => {
    await openUsage(`/orgs/${admin.org.id}/usage`);
    await expect(page.getByTestId("usage-total-calls").textContent()).resolves.toBe("5");
    await expect(page.getByTestId("usage-total-error-rate").textContent()).resolves.toBe("40%");
    const failing = page.locator('[aria-labelledby="usage-failing"]');
    await failing.getByText("2 of 2 calls failed (100%)").waitFor();
    await failing.getByText(/gateway says no to \[redacted\]/).waitFor();
    await expect(failing.textContent()).resolves.not.toContain("e2e-usage-7c1f0b93aa");

    const tools = page.locator('section[aria-labelledby="usage-tools"] tbody tr');
    await expect(tools.first().textContent()).resolves.toContain("lookup");
    const callsHeader = page.locator('section[aria-labelledby="usage-tools"]').getByRole("button", { name: "Calls" });
    await callsHeader.click(); // most calls first → fewest first
    await expect(tools.first().textContent()).resolves.toContain("broken");
    await expect(page.locator('section[aria-labelledby="usage-tools"] th[aria-sort="ascending"]').count()).resolves.toBe(1);
    await page.locator('[aria-labelledby="usage-over-time"] .recharts-bar-rectangle').first().waitFor();
    expect(await axeProblems(page, "usage-01-org-light")).toEqual([]);

    await page.emulateMedia({ colorScheme: "dark" });
    await page.reload();
    await page.getByTestId("usage-total-calls").waitFor({ timeout: 30_000 }); // a reload under a loaded machine
    await showScheme(page, "dark");
    expect(await axeProblems(page, "usage-02-org-dark")).toEqual([]);
    await page.emulateMedia({ colorScheme: "light" });

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.getByTestId("usage-total-calls").waitFor({ timeout: 30_000 }); // a reload under a loaded machine
    await expect(narrowProblems(page, "usage-03-org-390")).resolves.toBeNull();
    await page.setViewportSize({ width: 1280, height: 900 });
  }, 120_000);

  it("the workspace page counts the same calls; an empty workspace says there are none yet", async () => {
    await openUsage(`/w/${admin.workspace.id}/usage?range=7d`);
    await expect(page.getByTestId("usage-total-calls").textContent()).resolves.toBe("5");
    await expect(page.getByRole("link", { name: "7 days" }).getAttribute("aria-current")).resolves.toBe("page");
    const quiet = await createWorkspace(admin.org.id);
    await page.goto(`/w/${quiet.id}/usage?range=30d`);
    await page.getByRole("heading", { name: "No tool calls in the last 30 days" }).waitFor();
  });
});

describe("connector health in the console", () => {
  it("the list and the server page show the connector healthy; Test connection reports its result", async () => {
    await page.goto(`/orgs/${admin.org.id}/connectors`);
    await page.getByRole("link", { name: "Inventory health: healthy" }).waitFor();
    await page.goto(`/w/${admin.workspace.id}/servers/${serverId}`);
    await page.locator('[aria-labelledby="connector-health-title"]').getByText("Healthy").waitFor();

    await page.goto(`/orgs/${admin.org.id}/connectors/${connectorId}/health`);
    await page.getByLabel("Path below the base URL").fill("/lookup");
    await page.getByRole("button", { name: "Save probe" }).click();
    await page.getByText("Probe saved.").waitFor();
    await page.getByRole("button", { name: "Test connection" }).click();
    await page.getByText("Connection works.").waitFor();
    await page.getByText("GET /lookup answered HTTP 200 OK.").first().waitFor();
    expect(upstream.seen.at(-1)).toMatchObject({ method: "GET", url: "/v1/lookup" });
    expect(await seriousA11yViolations(page)).toEqual([]);

    await upstream.close();
    await page.getByRole("button", { name: "Test connection" }).click();
    await page.getByText("Connection failed.").waitFor();
    await page.locator("[data-health=failing]").first().waitFor();
    await screenshot(page, "usage-04-connector-health");
  }, 60_000);
});
