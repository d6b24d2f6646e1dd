import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { INSTANCE_KEY, makeKey } from "@/tests/helpers/factories";
import { mcpRpc } from "@/tests/helpers/oauth-flow";
import { CC_CLIENT, startOAuthUpstream, type OAuthUpstream } from "@/tests/helpers/oauth-upstream";
import { ensureBuild, type RunningApp, startApp } from "@/tests/e2e/support/next-app";
import { launchBrowser, newContext, signIn } from "@/tests/e2e/support/browser";
import { PAGE_WAIT_MS } from "@/tests/e2e/support/oauth-browser";
import { sweepAxe, sweepNarrow } from "@/tests/e2e/support/page-sweep";
import { type SeededAdmin, seedAdmin } from "@/tests/e2e/support/seed";

/**
 * Issue 24 point 1 in the console, in real Chromium against an OAuth upstream the test starts:
 * an admin creates an http connector with client credentials and an mcp connector with OAuth
 * per person through the connector forms; the API answers the auth they chose, never the
 * secret; the edit form keeps the secret when left empty and replaces it when typed (the
 * upstream's token endpoint, which checks it, says which one is stored); a bad URL is refused
 * at its field; changing an OAuth connector's scopes asks first and then sends connected people
 * to reconnect. Keyboard, axe (light and dark) and 390 px.
 */

let app: RunningApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let admin: SeededAdmin;
let upstream: OAuthUpstream;
let token: string;
const ids = { machine: "", upstream: "", server: "" };

async function adminApi(method: string, path: string, body?: unknown): Promise<Record<string, any>> {
  const res = await fetch(`${app.baseUrl}/api/v1${path}`, { method, headers: { authorization: `Bearer ${INSTANCE_KEY}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : {};
}

/** The `me` tool of the machine connector through /mcp/<serverId>: who the upstream says the caller is. */
async function callMe(): Promise<{ text: string; isError: boolean }> {
  const list = await mcpRpc(app.baseUrl, `/mcp/${ids.server}`, token, "tools/list");
  const name = (list.message.result.tools as { name: string }[]).find((tool) => tool.name.endsWith("me"))!.name;
  const { message } = await mcpRpc(app.baseUrl, `/mcp/${ids.server}`, token, "tools/call", { name, arguments: {} });
  const text: string = message.result?.content?.[0]?.text ?? "";
  return { text: text.startsWith("{") ? JSON.stringify(JSON.parse(text)) : text, isError: message.result?.isError === true };
}

const MACHINE = JSON.stringify({ user: `machine:${CC_CLIENT.id}` });
/** A connector's own page (the form is on …/connectors/new until the creation succeeds). */
const connectorPage = (url: URL) => /\/connectors\/[^/]+$/.test(url.pathname) && !url.pathname.endsWith("/new");
const radio = (name: string) => page.getByRole("radio", { name });

beforeAll(async () => {
  admin = await seedAdmin();
  await ensureBuild();
  [app, browser, upstream] = await Promise.all([
    // A generous connect timeout: on a busy test machine the default 1 s fails page renders at random.
    startApp({ databaseUrl: inject("databaseUrl"), env: { DB_CONNECT_TIMEOUT_MS: "10000" } }),
    launchBrowser(),
    startOAuthUpstream(),
  ]);
  token = (await makeKey({ id: admin.userId }, { orgId: admin.org.id, workspaceId: admin.workspace.id })).token;
  context = await newContext(browser, app.baseUrl);
  context.setDefaultTimeout(PAGE_WAIT_MS);
  page = await context.newPage();
  await signIn(page, admin.email, admin.password);
}, 900_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await app?.stop();
  await upstream?.close();
});

describe("connector authentication in the console", () => {
  it("an http connector with client credentials: a bad token URL is refused at its field; the API answers the auth without the secret; calls act as the machine client", async () => {
    await page.goto(`/orgs/${admin.org.id}/connectors/new?type=http`);
    await page.waitForLoadState("networkidle");
    await page.getByLabel("Name", { exact: true }).fill("Machine API");
    await page.getByLabel("Base URL").fill(upstream.origin);
    // Secret headers is the default, today's behaviour.
    expect(await radio("Secret headers").isChecked()).toBe(true);
    await radio("Client credentials").check();
    const tokenUrl = page.getByLabel("Token URL");
    await tokenUrl.fill("token-server/token");
    await page.getByLabel("Client ID").fill(CC_CLIENT.id);
    await page.getByLabel("Client secret").fill(CC_CLIENT.secret);
    await page.getByLabel("Scopes (optional)").fill("read");
    await page.getByLabel("Audience (optional)").fill("https://api.example");
    await page.getByRole("button", { name: "Create connector" }).click();
    // The message is at the field, tied to it for assistive tech.
    expect(await tokenUrl.getAttribute("aria-invalid")).toBe("true");
    const errorId = (await tokenUrl.getAttribute("aria-describedby"))!.split(" ").find((id) => id.endsWith("-error"))!;
    expect(await page.locator(`[id="${errorId}"]`).innerText()).toBe("Must be an absolute http(s) URL.");

    await tokenUrl.fill(`${upstream.origin}/cc/token`);
    await page.getByRole("button", { name: "Create connector" }).click();
    await page.waitForURL(connectorPage);
    ids.machine = new URL(page.url()).pathname.split("/").pop()!;
    const created = await adminApi("GET", `/connectors/${ids.machine}`);
    expect(created.auth).toEqual({ type: "client_credentials", tokenUrl: `${upstream.origin}/cc/token`, clientId: CC_CLIENT.id, scopes: ["read"], audience: "https://api.example", hasClientSecret: true });
    expect(JSON.stringify(created)).not.toContain(CC_CLIENT.secret);

    await adminApi("PATCH", `/connectors/${ids.machine}`, { tools: [{ name: "me", request: { method: "GET", path: "/api/me" } }] });
    ids.server = String((await adminApi("POST", `/workspaces/${admin.workspace.id}/servers`, { name: "Machine", connectorIds: [ids.machine] })).id);
    expect(await callMe()).toEqual({ text: MACHINE, isError: false });
  }, 300_000);

  it("editing keeps the client secret when left empty and replaces it when typed; the page never holds it", async () => {
    await page.goto(`/orgs/${admin.org.id}/connectors/${ids.machine}`);
    await page.waitForLoadState("networkidle"); // the form is live (typing before it is would be lost)
    const secret = page.getByLabel("Client secret");
    expect(await secret.inputValue()).toBe("");
    expect(await secret.getAttribute("placeholder")).toBe("set — leave empty to keep");
    expect(await page.content()).not.toContain(CC_CLIENT.secret);
    expect(await radio("Client credentials").isChecked()).toBe(true);

    // Other scopes, secret left empty: a new token is fetched with the stored secret.
    await page.getByLabel("Scopes (optional)").fill("read write");
    await page.getByRole("button", { name: "Save authentication" }).click();
    await expect.poll(async () => (await adminApi("GET", `/connectors/${ids.machine}`)).auth.scopes).toEqual(["read", "write"]);
    expect((await adminApi("GET", `/connectors/${ids.machine}`)).auth.hasClientSecret).toBe(true);
    expect(await callMe()).toEqual({ text: MACHINE, isError: false });
    expect(upstream.ccRequests.at(-1)).toMatchObject({ scope: "read write" });

    // A typed secret replaces it: the token endpoint refuses this one, so calls fail.
    const before = upstream.ccRequests.length;
    await secret.fill("not-the-machine-secret");
    await page.getByRole("button", { name: "Save authentication" }).click();
    await expect.poll(() => secret.inputValue()).toBe(""); // saved: the form starts again from the answer
    expect((await callMe()).isError).toBe(true);
    // And the right one typed again works again.
    await secret.fill(CC_CLIENT.secret);
    await page.getByRole("button", { name: "Save authentication" }).click();
    await expect.poll(() => secret.inputValue()).toBe("");
    expect(await callMe()).toEqual({ text: MACHINE, isError: false });
    expect(upstream.ccRequests.length).toBe(before + 1);
  }, 300_000);

  it("an mcp connector with OAuth per person, chosen by keyboard: created without reaching the upstream; its page says to connect", async () => {
    await page.goto(`/orgs/${admin.org.id}/connectors/new?type=mcp`);
    await page.waitForLoadState("networkidle");
    await page.getByLabel("Name", { exact: true }).fill("Upstream");
    await page.getByLabel("MCP server URL").fill(upstream.mcpUrl);
    // The radio group by keyboard: the arrow key moves from Secret headers to OAuth.
    await radio("Secret headers").focus();
    await page.keyboard.press("ArrowRight");
    expect(await radio("OAuth").isChecked()).toBe(true);
    expect(await radio("Each person connects their own account").isChecked()).toBe(true);
    await page.getByRole("group", { name: "Connection" }).waitFor();
    // An mcp connector discovers its authorization server: no endpoint fields to fill.
    expect(await page.getByLabel("Token endpoint").count()).toBe(0);
    await page.getByLabel("Scopes (optional)").fill("profile");
    await page.getByRole("button", { name: "Create connector" }).click();
    await page.waitForURL(connectorPage);
    ids.upstream = new URL(page.url()).pathname.split("/").pop()!;
    await page.getByText("No tools yet: connect to discover tools.").waitFor();
    expect((await adminApi("GET", `/connectors/${ids.upstream}`)).auth).toEqual({ type: "oauth", connection: "per_user", scopes: ["profile"] });
  }, 300_000);

  it("changing an OAuth connector's scopes asks first; confirmed, connected people must reconnect", async () => {
    await page.goto(`/orgs/${admin.org.id}/connectors/${ids.upstream}`);
    await page.getByRole("button", { name: "Connect to discover tools Upstream" }).click();
    await page.waitForURL((url) => url.origin === upstream.origin);
    await page.getByLabel("User").fill("alice");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((url) => url.origin === app.baseUrl && url.pathname.endsWith(ids.upstream));
    await page.waitForLoadState("networkidle");
    const connections = async () => (await adminApi("GET", `/connectors/${ids.upstream}/connections`)).items.map((c: { status: string }) => c.status);
    expect(await connections()).toEqual(["connected"]);

    await page.getByLabel("Scopes (optional)").fill("profile email");
    await page.getByRole("button", { name: "Save authentication" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Ask everyone to connect again?" });
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect((await adminApi("GET", `/connectors/${ids.upstream}`)).auth.scopes).toEqual(["profile"]);
    expect(await connections()).toEqual(["connected"]);

    await page.getByRole("button", { name: "Save authentication" }).click();
    await dialog.getByRole("button", { name: "Save and ask to reconnect" }).click();
    await expect.poll(async () => (await adminApi("GET", `/connectors/${ids.upstream}`)).auth.scopes).toEqual(["profile", "email"]);
    expect(await connections()).toEqual(["needs_reconnect"]);
  }, 300_000);

  it("the forms pass axe in light and dark and fit 390 px", async () => {
    const paths = [`/orgs/${admin.org.id}/connectors/new?type=http`, `/orgs/${admin.org.id}/connectors/${ids.machine}`, `/orgs/${admin.org.id}/connectors/${ids.upstream}`];
    const names = { prefix: "connector-auth", name: (path: string) => path.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "") };
    expect(await sweepAxe(page, paths, names)).toEqual({});
    const narrow = await newContext(browser, app.baseUrl);
    try {
      const small = await narrow.newPage();
      await small.setViewportSize({ width: 390, height: 844 });
      await signIn(small, admin.email, admin.password);
      expect(await sweepNarrow(small, paths, names)).toEqual({});
    } finally {
      await narrow.close();
    }
  }, 300_000);
});
