import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { db } from "@/lib/db/client";
import { INSTANCE_KEY, makeMember, uniqueSuffix } from "@/tests/helpers/factories";
import { ensureBuild, type RunningApp, startApp } from "@/tests/e2e/support/next-app";
import { launchBrowser, newContext, screenshot, signIn } from "@/tests/e2e/support/browser";
import { type SeededAdmin, seedAdmin } from "@/tests/e2e/support/seed";

/**
 * What a demanding admin's walk over every console page found, fixed, in real Chromium against
 * the production build: each test is something the admin would notice.
 */

let app: RunningApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let admin: SeededAdmin;
let serverId = "";
let member: { email: string; password: string };

async function apiCall(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${app.baseUrl}/api/v1${path}`, { method, headers: { authorization: `Bearer ${INSTANCE_KEY}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : {};
}

const slow = { timeout: 30_000 };

beforeAll(async () => {
  admin = await seedAdmin();
  await ensureBuild();
  [app, browser] = await Promise.all([startApp({ databaseUrl: inject("databaseUrl") }), launchBrowser()]);
  for (const name of ["Billing", "Billing EU", "CRM", "Calendar", "Docs", "Email", "Files", "GitHub", "Jira", "Payroll", "Slack", "Zendesk"]) {
    await apiCall("POST", `/orgs/${admin.org.id}/connectors`, { type: "http", name, config: { baseUrl: "https://api.example.com" }, tools: [] });
  }
  serverId = String((await apiCall("POST", `/workspaces/${admin.workspace.id}/servers`, { name: "Support desk", connectorIds: [] })).id);
  const suffix = uniqueSuffix();
  member = { email: `e2e-walk-member-${suffix}@example.test`, password: `e2e-password-${suffix}` };
  await makeMember(admin, { role: "member", email: member.email, name: "Mia Member", password: member.password });
  context = await newContext(browser, app.baseUrl);
  page = await context.newPage();
  await signIn(page, admin.email, admin.password);
}, 900_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await app?.stop();
});

describe("the demanding admin's walk", () => {
  it("a mistyped top-level address is a plain 404 (the old 'coming soon' section page is gone)", async () => {
    for (const path of ["/no-such-section", "/connectorz"]) {
      const res = await page.goto(path);
      expect({ path, status: res?.status() }).toEqual({ path, status: 404 });
      await page.getByRole("heading", { level: 1, name: "Page not found" }).waitFor();
      await expect(page.getByText("Coming soon").count()).resolves.toBe(0);
    }
  });

  it("the server page's connectors to assign are searched by name or slug, each shown with its slug, and say so when nothing matches", async () => {
    await page.goto(`/w/${admin.workspace.id}/servers/${serverId}`);
    const assignButtons = page.getByRole("button", { name: /^Assign / });
    await expect.poll(() => assignButtons.count(), slow).toBe(12);
    const search = page.getByRole("searchbox", { name: "Search connectors to assign" });
    await search.fill("bill");
    // Two connectors may share a name, never a slug: each is shown with it.
    await expect.poll(() => assignButtons.allInnerTexts(), slow).toEqual(["Billing\nbilling", "Billing EU\nbilling-eu"]);
    await search.fill("billing-eu");
    await expect.poll(() => assignButtons.allInnerTexts(), slow).toEqual(["Billing EU\nbilling-eu"]);
    await search.fill("bill");
    await page.getByRole("button", { name: "Assign Billing EU (billing-eu)" }).press("Enter");
    await expect.poll(() => assignButtons.allInnerTexts(), slow).toEqual(["Billing\nbilling"]);
    await expect.poll(() => page.getByRole("listitem").filter({ hasText: "billing-eu" }).count(), slow).toBe(1);
    await search.fill("nothing like it");
    await expect.poll(() => page.getByRole("status").filter({ hasText: "No unassigned connector matches “nothing like it”." }).count(), slow).toBe(1);
    await screenshot(page, "walk-server-connector-search");
    await search.fill("");
    await expect.poll(() => assignButtons.count(), slow).toBe(11);
  });

  it("the audit log names a refused filter as its form does, in plain words, and its text fields stop at their limit", async () => {
    await page.goto(`/orgs/${admin.org.id}/audit?since=yesterday&tool=${"x".repeat(201)}`);
    const alert = page.getByRole("alert").filter({ hasText: "These filters are not valid." });
    await expect.poll(() => alert.innerText(), slow).toContain("From: Enter a day, such as 2026-05-03.");
    await expect(alert.innerText()).resolves.toContain("Tool: Use at most 200 characters.");
    await expect(alert.innerText()).resolves.not.toMatch(/since|T14:05|expected/);
    await page.goto(`/orgs/${admin.org.id}/audit`);
    const tool = page.getByLabel("Tool", { exact: true });
    await tool.fill("y".repeat(250));
    await expect(tool.inputValue()).resolves.toHaveLength(200);
  });

  it("an audit event written with tracing on shows its trace id under Show, ready to copy; one without a trace shows none", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const event = { orgId: admin.org.id, actorType: "instance", action: "connector.update", targetType: "connector" } as const;
    // As the audit writer stores them: one during a traced request, one with tracing off.
    await db().auditEvent.createMany({
      data: [
        { ...event, targetId: "traced-connector", data: { changed: ["name"] }, traceId, createdAt: new Date() },
        { ...event, targetId: "untraced-connector", data: { changed: ["tools"] }, createdAt: new Date(Date.now() - 60_000) },
      ],
    });
    await page.goto(`/orgs/${admin.org.id}/audit?action=connector.update`);
    const rows = page.getByRole("row").filter({ has: page.getByText("Show", { exact: true }) });
    await expect.poll(() => rows.count(), slow).toBe(2);
    const [traced, untraced] = [rows.nth(0), rows.nth(1)];
    await traced.getByText("Show", { exact: true }).click();
    await expect(traced.locator("code").innerText()).resolves.toBe(traceId);
    await traced.getByRole("button", { name: "Copy trace id" }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText()), slow).toBe(traceId);
    await untraced.getByText("Show", { exact: true }).click();
    await expect(untraced.getByText('"tools"').count()).resolves.toBe(1);
    await expect(untraced.getByText("Trace id").count()).resolves.toBe(0);
    await screenshot(page, "walk-audit-trace-id");
  });

  it("someone who is not the instance owner opening New organization is told who may, not shown a 404", async () => {
    const memberContext = await newContext(browser, app.baseUrl);
    try {
      const p = await memberContext.newPage();
      await signIn(p, member.email, member.password);
      await p.goto("/orgs/new");
      await p.getByRole("heading", { level: 1, name: "You don't have access to this page" }).waitFor(slow);
      await expect(p.getByText("Only the instance owner creates organizations").count()).resolves.toBe(1);
      await expect(p.getByRole("button", { name: "Create organization" }).count()).resolves.toBe(0);
      await screenshot(p, "walk-member-new-org");
    } finally {
      await memberContext.close();
    }
  });
});
