import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { db } from "@/lib/db/client";
import { ensureBuild, type RunningApp, startApp } from "@/tests/e2e/support/next-app";
import { launchBrowser, newContext, screenshot, signIn } from "@/tests/e2e/support/browser";
import { type SeededAdmin, seedAdmin } from "@/tests/e2e/support/seed";
import { startRichUpstream, type RichUpstream } from "@/tests/fixtures/rich-upstream/rich-upstream";

/**
 * Issue 25 point 3 in real Chromium: Try a tool renders the fixture upstream's MCP App in a
 * sandboxed iframe as a host does (ext-apps AppBridge); the view gets the tool's input and
 * result, and its own call back goes through the same server action, role and audit.
 */

let app: RunningApp;
let browser: Browser;
let admin: SeededAdmin;
let rich: RichUpstream;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  await ensureBuild();
  [app, browser, admin, rich] = await Promise.all([startApp({ databaseUrl: inject("databaseUrl") }), launchBrowser(), seedAdmin(), startRichUpstream()]);
  context = await newContext(browser, app.baseUrl);
  page = await context.newPage();
}, 600_000);
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await app?.stop();
  await rich?.close();
});

/** The admin API as the instance credential (the key startApp gives the app). */
async function post(path: string, body: unknown): Promise<{ id: string }> {
  const res = await fetch(`${app.baseUrl}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${process.env.INSTANCE_API_KEY ?? "test-instance-key"}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { id: string };
}

describe("Try a tool with an MCP App", () => {
  it("renders the tool's app with its input and result, and the app's own tool call succeeds and is audited", async () => {
    const connector = await post(`/api/v1/orgs/${admin.org.id}/connectors`, { name: "Weather", type: "mcp", config: { url: rich.url } });
    const server = await post(`/api/v1/workspaces/${admin.workspace.id}/servers`, { name: "Weather", connectorIds: [connector.id] });
    await signIn(page, admin.email, admin.password);
    await page.goto(`/w/${admin.workspace.id}/servers/${server.id}`);
    await page.getByLabel("Tool", { exact: true }).selectOption("show_weather");
    await page.getByLabel(/city/).fill("Oslo");
    await page.getByRole("button", { name: "Call tool" }).click();
    const frame = page.frameLocator('iframe[title="show_weather app"]');
    await frame.getByText("connected").waitFor();
    await frame.getByText("Input city: Oslo").waitFor();
    await frame.getByText(/Result: Sunny in Oslo, 21°C \/ \{"city":"Oslo","temperature":21\}/).waitFor();
    // Sandboxed without same-origin: the view's code cannot reach the console.
    await expect(page.locator('iframe[title="show_weather app"]').getAttribute("sandbox")).resolves.toBe("allow-scripts");
    await frame.getByRole("button", { name: "Ask again for Paris" }).click();
    await frame.getByText("Called back: Sunny in Paris, 21°C").waitFor();
    await screenshot(page, "tool-app-try-a-tool");
    // Both calls are the admin's tool.call events on this server: the button's and the view's.
    await expect
      .poll(async () => db().auditEvent.count({ where: { orgId: admin.org.id, action: "tool.call", actorId: admin.userId, data: { path: ["tool"], equals: "show_weather" } } }))
      .toBe(2);
  }, 120_000);
});
