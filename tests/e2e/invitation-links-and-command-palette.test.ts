import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { db } from "@/lib/db/client";
import { INSTANCE_KEY, makeWorkspace, uniqueSuffix } from "@/tests/helpers/factories";
import { ensureBuild, type RunningApp, startApp } from "@/tests/e2e/support/next-app";
import { launchBrowser, newContext, screenshot, seriousA11yViolations, signIn } from "@/tests/e2e/support/browser";
import { type SeededAdmin, seedAdmin } from "@/tests/e2e/support/seed";

/**
 * "Invitation flow end to end, including an expired and a reused link", and the command
 * palette ("Ctrl/Cmd-K anywhere in the console, jump to any page and to objects, keyboard
 * only"), in real Chromium against the production build. No SMTP here: the link is copied.
 */

let app: RunningApp;
let browser: Browser;
let adminContext: BrowserContext;
let page: Page;
let admin: SeededAdmin;
let second: { id: string; name: string };
const ids = { connector: "", server: "" };

async function apiCall(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${app.baseUrl}/api/v1${path}`, { method, headers: { authorization: `Bearer ${INSTANCE_KEY}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : {};
}

beforeAll(async () => {
  admin = await seedAdmin();
  second = await makeWorkspace(admin.org.id, { name: "Billing team", slug: `billing-${uniqueSuffix()}` });
  await ensureBuild();
  // A generous connect timeout: on a busy test machine the default 1 s fails page renders at random.
  [app, browser] = await Promise.all([startApp({ databaseUrl: inject("databaseUrl"), env: { DB_CONNECT_TIMEOUT_MS: "10000" } }), launchBrowser()]);
  ids.connector = String((await apiCall("POST", `/orgs/${admin.org.id}/connectors`, { type: "http", name: "Warehouse inventory", config: { baseUrl: "https://inventory.example.test" }, tools: [] })).id);
  ids.server = String((await apiCall("POST", `/workspaces/${admin.workspace.id}/servers`, { name: "Night shift desk", connectorIds: [ids.connector] })).id);
  adminContext = await newContext(browser, app.baseUrl);
  page = await adminContext.newPage();
  await signIn(page, admin.email, admin.password);
}, 600_000);

afterAll(async () => {
  await adminContext?.close();
  await browser?.close();
  await app?.stop();
});

/** The admin invites on the Members page and copies the link shown (no SMTP configured). */
async function invite(email: string, role: "member" | "admin", workspace?: string): Promise<string> {
  await page.goto(`/orgs/${admin.org.id}/members`);
  await page.getByRole("textbox", { name: "Email to invite" }).fill(email);
  await page.getByRole("combobox", { name: "Organization role" }).selectOption(role);
  if (workspace) await page.getByRole("checkbox", { name: workspace }).first().check();
  await page.getByRole("button", { name: "Send invitation" }).click();
  const link = page.getByTestId("invitation-link");
  await link.waitFor();
  return (await link.textContent()) ?? "";
}

describe("invitations by link", () => {
  it("a new person opens the link, makes an account, signs in and is in the org and the chosen workspace", async () => {
    const email = `e2e-newcomer-${uniqueSuffix()}@example.test`;
    const link = await invite(email, "admin", second.name);
    expect(link).toMatch(new RegExp(`^${app.baseUrl}/invite/[\\w-]{43}$`));
    await page.getByText("No email is sent (SMTP is not configured)").waitFor();
    await screenshot(page, "invite-01-link-shown");

    const visitor = await newContext(browser, app.baseUrl);
    try {
      const v = await visitor.newPage();
      await v.goto(link);
      await v.getByRole("heading", { name: `Join ${admin.org.name}` }).waitFor();
      await v.getByText(`and its workspace ${second.name} as an admin`).waitFor();
      expect(await seriousA11yViolations(v)).toEqual([]);
      await screenshot(v, "invite-02-link-page");
      await v.getByLabel("Your name").fill("Nora Newcomer");
      await v.getByLabel("Password").fill("a-long-enough-password");
      await v.getByRole("button", { name: "Create account and join" }).click();
      await v.waitForURL(/\/signin/);
      await signIn(v, email, "a-long-enough-password");
      await v.goto(`/orgs/${admin.org.id}/members`);
      await v.getByRole("heading", { name: "Members", level: 1 }).waitFor(); // an admin of the org now
      const user = await db().user.findFirstOrThrow({ where: { email }, select: { id: true } });
      expect(await db().workspaceMember.count({ where: { orgId: admin.org.id, workspaceId: second.id, userId: user.id } })).toBe(1);

      // The same link again: used, refused with a page that says so.
      await v.goto(link);
      await v.getByRole("heading", { name: "This invitation was already used" }).waitFor();
      await screenshot(v, "invite-03-reused-link");
    } finally {
      await visitor.close();
    }
  }, 180_000);

  it("an expired link is refused with a page that says so", async () => {
    const email = `e2e-late-${uniqueSuffix()}@example.test`;
    const link = await invite(email, "member");
    await db().orgInvitation.updateMany({ where: { orgId: admin.org.id, email }, data: { expiresAt: new Date(Date.now() - 60_000) } });
    const visitor = await newContext(browser, app.baseUrl);
    try {
      const v = await visitor.newPage();
      await v.goto(link);
      await v.getByRole("heading", { name: "This invitation has expired" }).waitFor();
      await expect(v.getByRole("button", { name: /join/i }).count()).resolves.toBe(0);
      expect(await seriousA11yViolations(v)).toEqual([]);
      await screenshot(v, "invite-04-expired-link");
    } finally {
      await visitor.close();
    }
  }, 120_000);
});

describe("command palette", () => {
  it("Ctrl-K from any page, typed names and Enter reach a page, a connector and a server, keyboard only", async () => {
    await page.goto(`/w/${admin.workspace.id}/files`);
    await page.getByRole("heading", { level: 1 }).first().waitFor();
    const palette = page.getByRole("dialog", { name: "Jump to" });

    await page.keyboard.press("Control+k");
    await palette.waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.keyboard.type("Organization members");
    await page.keyboard.press("Enter");
    await page.waitForURL(`**/orgs/${admin.org.id}/members`);
    await expect(palette.count()).resolves.toBe(0);

    await page.keyboard.press("Control+k");
    await palette.getByRole("option", { name: /Warehouse inventory/ }).waitFor();
    await page.keyboard.type("Warehouse inv");
    await screenshot(page, "palette-01-connector");
    await page.keyboard.press("Enter");
    await page.waitForURL(`**/orgs/${admin.org.id}/connectors/${ids.connector}`);

    await page.keyboard.press("Meta+k");
    await palette.waitFor();
    await page.keyboard.type("Night shift");
    await page.keyboard.press("Enter");
    await page.waitForURL(`**/w/${admin.workspace.id}/servers/${ids.server}`);

    await page.keyboard.press("Control+k");
    await palette.waitFor();
    await page.keyboard.press("Escape");
    await expect(palette.count()).resolves.toBe(0);
  }, 120_000);
});
