import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, BrowserContext } from "playwright-core";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { freePort } from "@/lib/net/free-port";
import { ensureBuild, type RunningApp, startApp } from "@/tests/e2e/support/next-app";
import { launchBrowser, newContext, signIn } from "@/tests/e2e/support/browser";
import { PAGE_WAIT_MS } from "@/tests/e2e/support/oauth-browser";
import { type SeededAdmin, seedAdmin } from "@/tests/e2e/support/seed";
import { createApiKeyFor, makeMember, uniqueSuffix } from "@/tests/helpers/factories";
import { sessionCookieFor } from "@/tests/helpers/oauth-flow";
import { signInUpstream, startOAuthUpstream, type OAuthUpstream } from "@/tests/helpers/oauth-upstream";

/**
 * Issue 24 point 4 in a person's browser, against the production build: a person with no
 * connection calls a per-person OAuth connector's tool from a 2025-era MCP client that declared
 * URL elicitation and gets -32042 whose URL is the connect link; in Chromium the link signs them
 * in (as that person), goes on to the upstream's sign-in page and back to a page that says it
 * worked; the client's retry then acts upstream as them. The same link opened in another
 * person's session is refused with a page that says so.
 */

let app: RunningApp;
let browser: Browser;
let upstream: OAuthUpstream;
let admin: SeededAdmin;
let port: number;
let serverId: string;
const PASSWORD = "connect-link-password";
const people: Record<"carol" | "dave", { id: string; email: string; key: string }> = {} as never;

async function appApi(key: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${app.baseUrl}/api/v1${path}`, { method, headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json().catch(() => null) };
}

async function person(name: "carol" | "dave"): Promise<{ id: string; email: string; key: string }> {
  const email = `${name}-${uniqueSuffix()}@example.test`;
  const user = await makeMember({ orgId: admin.org.id, workspaceId: admin.workspace.id }, { role: "member", email, name, password: PASSWORD });
  return { id: user.id, email, key: (await createApiKeyFor(user, { id: admin.workspace.id, orgId: admin.org.id })).token };
}

beforeAll(async () => {
  await ensureBuild();
  port = await freePort();
  [app, browser, admin, upstream] = await Promise.all([
    // A stateful session: how a 2025-era client's declared capabilities (URL elicitation) are known to the server.
    // DB_CONNECT_TIMEOUT_MS: on a busy test machine the default 1 s fails page renders at random.
    startApp({ databaseUrl: inject("databaseUrl"), port, env: { MCP_STATEFUL_SESSIONS: "true", DB_CONNECT_TIMEOUT_MS: "10000" } }),
    launchBrowser(),
    seedAdmin(),
    startOAuthUpstream(),
  ]);
  people.carol = await person("carol");
  people.dave = await person("dave");
  const adminKey = (await createApiKeyFor({ id: admin.userId }, { id: admin.workspace.id, orgId: admin.org.id })).token;
  const created = await appApi(adminKey, "POST", `/orgs/${admin.org.id}/connectors`, { type: "mcp", name: "Upstream", config: { url: upstream.mcpUrl }, auth: { type: "oauth", connection: "per_user" } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  // The admin connects first (over the API and the upstream's sign-in page): that discovers the tools.
  const started = await appApi(adminKey, "POST", `/connectors/${created.body.id}/connections`, {});
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const back = await signInUpstream(started.body.authorizationUrl, "alice");
  const done = await fetch(back, { headers: { cookie: await sessionCookieFor(admin.userId) }, redirect: "manual" });
  expect(done.status).toBe(200);
  const server = await appApi(adminKey, "POST", `/workspaces/${admin.workspace.id}/servers`, { name: "Connect link", connectorIds: [created.body.id] });
  expect(server.status, JSON.stringify(server.body)).toBe(201);
  serverId = server.body.id;
}, 900_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await upstream?.close();
});

async function mcpClient(key: string): Promise<Client> {
  const client = new Client({ name: "url-elicitation-client", version: "1" }, { capabilities: { elicitation: { url: {} } }, versionNegotiation: { mode: "legacy" } });
  // At localhost, as the person's browser: the connect link follows the origin the client used.
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://localhost:${port}/mcp/${serverId}`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  return client;
}

async function inContext<T>(work: (context: BrowserContext) => Promise<T>): Promise<T> {
  const context = await newContext(browser, `http://localhost:${port}`);
  context.setDefaultTimeout(PAGE_WAIT_MS);
  try {
    return await work(context);
  } finally {
    await context.close();
  }
}

describe("the connect link of a per-person OAuth connector, followed in Chromium", () => {
  let client: Client;
  let tool: string;
  let link: string;

  it("a person with no connection who declared URL elicitation gets -32042 with the connect link, and nothing goes upstream", async () => {
    client = await mcpClient(people.carol.key);
    tool = (await client.listTools()).tools.find((t) => t.name.endsWith("whoami"))!.name;
    const issued = upstream.issued.length;
    const error = await client.callTool({ name: tool, arguments: {} }).then(
      (result) => {
        throw new Error(`expected -32042, got a result: ${JSON.stringify(result)}`);
      },
      (e: { code?: number; data?: { elicitations?: { mode: string; url: string; message: string }[] } }) => e,
    );
    expect(error.code).toBe(-32042);
    const [elicitation] = error.data!.elicitations!;
    expect(elicitation.mode).toBe("url");
    expect(elicitation.message).toContain('"Upstream"');
    // No PUBLIC_URL: the link is on the origin the MCP client used (its real port, not PORT's default).
    link = elicitation.url;
    expect(link).toBe(`http://localhost:${port}/api/connections/start?connector=${new URL(link).searchParams.get("connector")}&person=${people.carol.id}`);
    expect(upstream.issued.length).toBe(issued);
  }, 300_000);

  it("opened while signed in as another person, the link is refused with a page that says so", async () => {
    await inContext(async (context) => {
      const page = await context.newPage();
      await signIn(page, people.dave.email, PASSWORD);
      const response = await page.goto(link);
      expect(response?.status()).toBe(403);
      await page.getByRole("heading", { name: "Another person's link" }).waitFor();
      await page.getByText("made for another person").waitFor();
    });
    expect(upstream.resources.length).toBe(1); // the admin's only: the refused link never reached the upstream
  }, 300_000);

  it("followed by its person it signs them in, goes to the upstream's sign-in and back to a page that says to retry; the retry acts upstream as them", async () => {
    await inContext(async (context) => {
      const page = await context.newPage();
      await page.goto(link);
      await page.waitForURL((url) => url.pathname === "/signin");
      await page.getByLabel("Email").fill(people.carol.email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      // Straight on to the upstream's own sign-in page.
      await page.waitForURL((url) => url.origin === upstream.origin, { timeout: PAGE_WAIT_MS });
      await page.getByLabel("User").fill("carol");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL((url) => url.href.startsWith(`http://localhost:${port}/api/connections/callback`));
      await page.getByRole("heading", { name: "Connected" }).waitFor();
      await page.getByText("retry in your MCP client").waitFor();
    });
    const retried = await client.callTool({ name: tool, arguments: {} });
    expect(retried.isError).not.toBe(true);
    expect(retried.content).toEqual([{ type: "text", text: "upstream user: carol" }]);
    await client.close();
  }, 300_000);
});
