import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { freePort } from "@/lib/net/free-port";
import { ensureBuild, type RunningApp, startApp } from "@/tests/e2e/support/next-app";
import { launchBrowser, newContext, signIn } from "@/tests/e2e/support/browser";
import { PAGE_WAIT_MS } from "@/tests/e2e/support/oauth-browser";
import { sweepAxe, sweepNarrow } from "@/tests/e2e/support/page-sweep";
import { type SeededAdmin, seedAdmin } from "@/tests/e2e/support/seed";
import { api } from "@/tests/helpers/api";
import { createApiKeyFor, makeMember, uniqueSuffix } from "@/tests/helpers/factories";
import { startOAuthUpstream, type OAuthUpstream } from "@/tests/helpers/oauth-upstream";

/**
 * Issue 24 points 3 and 5 in the console, on an app started as `npm start` runs with no
 * settings (no PUBLIC_URL) and reached by both of its hostnames: an admin connects from the
 * connector's page ("connect to discover tools") at http://localhost:PORT, a member from their
 * Connections page at http://127.0.0.1:PORT. Each connection's callback is on the origin that
 * person's browser used, and the upstream's dynamic registration is made again for the second
 * origin (its redirect_uri follows). Then the member disconnects (asked first), the admin sees
 * and removes connections, and the page passes axe in light and dark and fits 390 px.
 */

let app: RunningApp;
let browser: Browser;
let upstream: OAuthUpstream;
let admin: SeededAdmin;
let port: number;
let connectorId: string;
const PASSWORD = "console-connections-password";
const member = { email: "", name: "" };
const LONG_NAME = `Shared upstream with an unusually long name that must not widen the page ${"x".repeat(40)}`;
const hosts = () => ({ localhost: `http://localhost:${port}`, loopback: `http://127.0.0.1:${port}` });

beforeAll(async () => {
  await ensureBuild();
  port = await freePort();
  [app, browser, admin, upstream] = await Promise.all([
    // No PUBLIC_URL, as `npm start` runs with no settings (startApp clears it). DB_CONNECT_TIMEOUT_MS: page renders on a busy machine.
    startApp({ databaseUrl: inject("databaseUrl"), port, env: { DB_CONNECT_TIMEOUT_MS: "10000" } }),
    launchBrowser(),
    seedAdmin(),
    startOAuthUpstream(),
  ]);
  const suffix = uniqueSuffix();
  member.email = `member-${suffix}@example.test`;
  member.name = `Member ${suffix}`;
  await makeMember({ orgId: admin.org.id, workspaceId: admin.workspace.id }, { role: "member", email: member.email, name: member.name, password: PASSWORD });
  const key = (await createApiKeyFor({ id: admin.userId }, { id: admin.workspace.id, orgId: admin.org.id })).token;
  // Made in-process on the same database: an OAuth connector is created without reaching its upstream.
  const created = await api(key).post(`/api/v1/orgs/${admin.org.id}/connectors`, { type: "mcp", name: "Upstream", config: { url: upstream.mcpUrl }, auth: { type: "oauth", connection: "per_user" } });
  expect(created.status, created.text).toBe(201);
  connectorId = created.body.id;
  const shared = await api(key).post(`/api/v1/orgs/${admin.org.id}/connectors`, { type: "mcp", name: LONG_NAME, config: { url: upstream.mcpUrl }, auth: { type: "oauth", connection: "shared" } });
  expect(shared.status, shared.text).toBe(201);
}, 900_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await upstream?.close();
});

async function signedIn(base: string, email: string, password: string, viewport?: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser, base);
  context.setDefaultTimeout(PAGE_WAIT_MS);
  if (viewport) await context.pages()[0]?.setViewportSize(viewport);
  const page = await context.newPage();
  if (viewport) await page.setViewportSize(viewport);
  await signIn(page, email, password);
  return { context, page };
}

/** The upstream's own sign-in page, as the person; back at Switchboard afterwards. */
async function signInAtUpstream(page: Page, user: string, back: string): Promise<void> {
  await page.waitForURL((url) => url.origin === upstream.origin, { timeout: PAGE_WAIT_MS });
  await page.getByLabel("User").fill(user);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => url.origin === back && url.pathname !== "/api/connections/callback", { timeout: PAGE_WAIT_MS });
}

const card = (page: Page, name: string) => page.getByRole("listitem").filter({ has: page.getByRole("heading", { name, exact: true }) });

describe("Connections in the console, without PUBLIC_URL, on both hostnames", () => {
  let adminSession: { context: BrowserContext; page: Page };

  it("an admin at localhost connects from the connector's page, which said to connect to discover tools; the callback and the registration are on localhost", async () => {
    adminSession = await signedIn(hosts().localhost, admin.email, admin.password);
    const { page } = adminSession;
    await page.goto(`/orgs/${admin.org.id}/connectors/${connectorId}`);
    await page.getByText("No tools yet: connect to discover tools.").waitFor();
    await page.getByText("Nobody is connected yet.").waitFor();
    await page.getByRole("button", { name: "Connect to discover tools Upstream" }).click();
    await signInAtUpstream(page, "alice", hosts().localhost);
    expect(new URL(page.url()).pathname).toBe(`/orgs/${admin.org.id}/connectors/${connectorId}`);
    expect(upstream.registeredRedirects).toEqual([[`${hosts().localhost}/api/connections/callback`]]);
    await page.getByRole("link", { name: "Tools (1)" }).waitFor();
    expect(await page.getByText("No tools yet").count()).toBe(0);
    const rows = page.getByRole("table", { name: "Who is connected to Upstream" }).getByRole("row");
    await expect.poll(() => rows.count()).toBe(2);
    await rows.nth(1).getByText("E2E Admin").waitFor();
    await rows.nth(1).getByText("Connected").waitFor();
  }, 300_000);

  it("a member at 127.0.0.1 connects from their Connections page: the callback and a new registration are on 127.0.0.1", async () => {
    const { context, page } = await signedIn(hosts().loopback, member.email, PASSWORD);
    try {
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Connections" }).click();
      await page.getByRole("heading", { name: "Connections", level: 1 }).waitFor();
      const upstreamCard = card(page, "Upstream");
      await upstreamCard.getByText("Not connected").waitFor();
      await upstreamCard.getByText("Your account", { exact: true }).waitFor();
      // The shared connector: shown, but an owner or admin connects it.
      const sharedCard = card(page, LONG_NAME);
      await sharedCard.getByText("An owner or admin of the organization connects it for everyone.").waitFor();
      expect(await sharedCard.getByRole("button").count()).toBe(0);

      await upstreamCard.getByRole("button", { name: "Connect Upstream" }).click();
      await signInAtUpstream(page, "bob", hosts().loopback);
      expect(new URL(page.url()).pathname).toBe("/me/connections");
      await page.getByText("Connected to Upstream. Retry the call in your MCP client.").waitFor();
      expect(upstream.registrations).toBe(2);
      expect(upstream.registeredRedirects[1]).toEqual([`${hosts().loopback}/api/connections/callback`]);
      await upstreamCard.getByText("Connected", { exact: true }).waitFor();
      await upstreamCard.getByText("profile").waitFor(); // its scopes
      await upstreamCard.getByText("Token expires").waitFor();

      // The admin's list shows both persons, since when.
      await adminSession.page.reload();
      const rows = adminSession.page.getByRole("table", { name: "Who is connected to Upstream" }).getByRole("row");
      await expect.poll(() => rows.count()).toBe(3);
      await adminSession.page.getByRole("cell", { name: member.name, exact: true }).waitFor();

      // Disconnect asks first; cancel keeps the connection.
      const revocations = upstream.revocations;
      await upstreamCard.getByRole("button", { name: "Disconnect your account from Upstream" }).click();
      const dialog = page.getByRole("alertdialog", { name: "Disconnect your account from Upstream?" });
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await upstreamCard.getByText("Connected", { exact: true }).waitFor();
      await upstreamCard.getByRole("button", { name: "Disconnect your account from Upstream" }).click();
      await dialog.getByRole("button", { name: "Disconnect" }).click();
      await upstreamCard.getByText("Not connected").waitFor();
      expect(upstream.revocations).toBeGreaterThan(revocations);
    } finally {
      await context.close();
    }
  }, 300_000);

  it("the admin's Connections page shows the shared connector to connect; the page passes axe in light and dark and fits 390 px with a long name", async () => {
    const { page } = adminSession;
    await page.goto("/me/connections");
    await card(page, "Upstream").getByText("Connected", { exact: true }).waitFor();
    const sharedCard = card(page, LONG_NAME);
    await sharedCard.getByText("Nobody has connected it yet").waitFor();
    await sharedCard.getByRole("button", { name: `Connect ${LONG_NAME}` }).waitFor();
    const names = { prefix: "upstream-connections", name: (path: string) => path.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "") };
    expect(await sweepAxe(page, ["/me/connections"], names)).toEqual({});
    const narrow = await signedIn(hosts().localhost, admin.email, admin.password, { width: 390, height: 844 });
    try {
      expect(await sweepNarrow(narrow.page, ["/me/connections", `/orgs/${admin.org.id}/connectors/${connectorId}`], names)).toEqual({});
    } finally {
      await narrow.context.close();
    }
  }, 300_000);

  it("the admin removes a connection from the connector's page, asked first", async () => {
    const { page } = adminSession;
    await page.goto(`/orgs/${admin.org.id}/connectors/${connectorId}`);
    await page.getByRole("button", { name: "Remove E2E Admin from Upstream" }).click();
    await page.getByRole("alertdialog", { name: "Remove E2E Admin from Upstream?" }).getByRole("button", { name: "Remove" }).click();
    await page.getByText("Nobody is connected yet.").waitFor();
    await adminSession.context.close();
  }, 300_000);

  it("a person whose organizations have no OAuth connector sees the empty state", async () => {
    const other = await seedAdmin();
    const { context, page } = await signedIn(hosts().loopback, other.email, other.password);
    try {
      await page.goto("/me/connections");
      await page.getByRole("heading", { name: "No connectors to connect" }).waitFor();
    } finally {
      await context.close();
    }
  }, 300_000);
});
