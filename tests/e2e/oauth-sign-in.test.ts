import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { Client, StreamableHTTPClientTransport, UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError as V1UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { freePort } from "@/lib/net/free-port";
import { ensureBuild, type RunningApp, startApp } from "@/tests/e2e/support/next-app";
import { launchBrowser, newContext, signIn } from "@/tests/e2e/support/browser";
import { PAGE_WAIT_MS } from "@/tests/e2e/support/oauth-browser";
import { type SeededAdmin, seedAdmin } from "@/tests/e2e/support/seed";
import { api } from "@/tests/helpers/api";
import { createApiKeyFor } from "@/tests/helpers/factories";

/**
 * Issue 13 acceptance against the production build: the MCP SDK v2 and v1 clients' own OAuth
 * providers, and mcp-remote 0.15.1's OAuth flow, with Chromium as the user's browser (real sign-in page,
 * the sign-in bridge, the consent page, Allow); then tools/list is exactly what the same user's
 * API key gets.
 */

let app: RunningApp;
let browser: Browser;
let context: BrowserContext;
let admin: SeededAdmin;
let serverId: string;
let apiKey: string;
const CALLBACK = "http://localhost:9/callback";

beforeAll(async () => {
  await ensureBuild();
  const port = await freePort();
  [app, browser, admin] = await Promise.all([
    // PUBLIC_URL: this file is the run with it set, as a deployment behind a proxy has it; the
    // default install (no PUBLIC_URL, both hostnames) is tests/e2e/oauth-people.test.ts.
    // DB_CONNECT_TIMEOUT_MS: on a busy test machine the default 1 s fails page renders at random
    // (the sign-in page and the consent page came up empty under load).
    startApp({ databaseUrl: inject("databaseUrl"), port, env: { PUBLIC_URL: `http://127.0.0.1:${port}`, DB_CONNECT_TIMEOUT_MS: "10000" } }),
    launchBrowser(),
    seedAdmin(),
  ]);
  context = await newContext(browser, app.baseUrl);
  // A busy machine renders pages slowly: wait for each condition long (a 15 s wait for the consent heading once failed under load).
  context.setDefaultTimeout(PAGE_WAIT_MS);
  apiKey = (await createApiKeyFor({ id: admin.userId }, { id: admin.workspace.id, orgId: admin.org.id })).token;
  const asAdmin = api(apiKey); // in-process, on the same database
  const crm = await asAdmin.post(`/api/v1/orgs/${admin.org.id}/connectors`, {
    type: "http",
    name: "CRM",
    config: { baseUrl: "https://api.example.com" },
    tools: ["get_customer", "list_customers"].map((name) => ({ name, request: { method: "GET", path: `/${name}` } })),
  });
  expect(crm.status, crm.text).toBe(201);
  serverId = (await asAdmin.post(`/api/v1/workspaces/${admin.workspace.id}/servers`, { name: "Support", connectorIds: [crm.body.id] })).body.id;
}, 600_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await app?.stop();
});

function provider(onAuthorize: (url: URL) => void): OAuthClientProvider & { stored: Record<string, any> } {
  const stored: Record<string, any> = {};
  return {
    stored,
    get redirectUrl() {
      return CALLBACK;
    },
    get clientMetadata() {
      return { client_name: "E2E SDK client", redirect_uris: [CALLBACK], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" };
    },
    clientInformation: () => stored.client,
    saveClientInformation: (info) => void (stored.client = info),
    tokens: () => stored.tokens,
    saveTokens: (tokens) => void (stored.tokens = tokens),
    redirectToAuthorization: (url) => onAuthorize(url),
    saveCodeVerifier: (verifier) => void (stored.verifier = verifier),
    codeVerifier: () => stored.verifier,
  };
}

const newClient = () => new Client({ name: "e2e", version: "1" }, { capabilities: {}, versionNegotiation: { mode: { pin: "2026-07-28" } } });

/**
 * The user's browser at the client's authorization URL: the consent page names the client and
 * where the code goes, Allow sends the browser to the client's loopback callback (answered
 * here); returns that callback's parameters.
 */
async function allowInBrowser(page: Page, authorizationUrl: URL): Promise<URLSearchParams> {
  let callback: URL | null = null;
  await page.route("http://localhost:9/**", async (route) => {
    callback = new URL(route.request().url());
    await route.fulfill({ status: 200, contentType: "text/plain", body: "You can close this window." });
  });
  await page.goto(authorizationUrl.href, { timeout: PAGE_WAIT_MS });
  await page.getByRole("heading", { name: "Allow E2E SDK client?" }).waitFor().catch(async (error: Error) => {
    throw new Error(`${error.message}\nthe page at ${page.url()} says: ${(await page.textContent("body"))?.slice(0, 500)}`);
  });
  await page.getByText("It will be sent back to localhost:9.").waitFor();
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL((url) => url.href.startsWith(CALLBACK), { timeout: PAGE_WAIT_MS });
  expect(callback!.searchParams.get("code")).toBeTruthy();
  return callback!.searchParams;
}

/** The tool names the same user's API key gets on `endpoint`. */
async function keyedToolNames(endpoint: URL): Promise<string[]> {
  const keyed = newClient();
  await keyed.connect(new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { authorization: `Bearer ${apiKey}` } } }));
  const names = (await keyed.listTools()).tools.map((tool) => tool.name).sort();
  await keyed.close();
  return names;
}

describe("OAuth sign-in of an MCP client", () => {
  it("the SDK's OAuth flow with Chromium signing in and allowing; then the API key's tools", async () => {
    const page = await context.newPage();
    await signIn(page, admin.email, admin.password);

    let authorizationUrl: URL | null = null;
    const auth = provider((url) => void (authorizationUrl = url));
    const endpoint = new URL(`${app.baseUrl}/mcp/${serverId}`);
    const first = new StreamableHTTPClientTransport(endpoint, { authProvider: auth });
    await expect(newClient().connect(first)).rejects.toBeInstanceOf(UnauthorizedError);

    await first.finishAuth(await allowInBrowser(page, authorizationUrl!));
    const client = newClient();
    await client.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: auth }));
    const viaOauth = (await client.listTools()).tools.map((tool) => tool.name).sort();
    await client.close();
    expect(viaOauth).toEqual(["get_customer", "list_customers"]);
    expect(viaOauth).toEqual(await keyedToolNames(endpoint));
  }, 240_000);

  it("the v1 SDK's OAuth flow (2025-era) with Chromium signing in and allowing, then a refresh by itself; then the API key's tools", async () => {
    const v1Context = await newContext(browser, app.baseUrl);
    v1Context.setDefaultTimeout(PAGE_WAIT_MS);
    const page = await v1Context.newPage();
    await signIn(page, admin.email, admin.password);
    let authorizationUrl: URL | null = null;
    const auth = provider((url) => void (authorizationUrl = url));
    const endpoint = new URL(`${app.baseUrl}/mcp/${serverId}`);
    const first = new V1Transport(endpoint, { authProvider: auth as never });
    await expect(new V1Client({ name: "e2e-v1", version: "1" }).connect(first)).rejects.toBeInstanceOf(V1UnauthorizedError);

    await first.finishAuth((await allowInBrowser(page, authorizationUrl!)).get("code")!);
    await v1Context.close();

    // An access token the server no longer takes: the v1 SDK refreshes by itself (rotation).
    const { access_token: firstAccess, refresh_token: firstRefresh } = auth.stored.tokens;
    auth.stored.tokens = { ...auth.stored.tokens, access_token: "x.y.z" };
    const client = new V1Client({ name: "e2e-v1", version: "1" });
    await client.connect(new V1Transport(endpoint, { authProvider: auth as never }));
    const viaOauth = (await client.listTools()).tools.map((tool) => tool.name).sort();
    await client.close();
    expect(auth.stored.tokens.access_token).not.toBe(firstAccess);
    expect(auth.stored.tokens.refresh_token).not.toBe(firstRefresh);
    expect(viaOauth).toEqual(["get_customer", "list_customers"]);
    expect(viaOauth).toEqual(await keyedToolNames(endpoint));
  }, 240_000);

  it("mcp-remote's OAuth flow (its own loopback callback) with Chromium allowing; then the API key's tools", async () => {
    const page = await context.newPage();
    await signIn(page, admin.email, admin.password);
    const endpoint = `${app.baseUrl}/mcp/${serverId}`;
    const configDir = mkdtempSync(path.join(tmpdir(), "mcp-remote-"));
    const emptyPath = mkdtempSync(path.join(tmpdir(), "no-browser-"));
    const callbackPort = await freePort();
    // mcp-remote-client: connects, signs in through the browser, prints tools/list, exits. No
    // browser helper is on its PATH, so it only prints the authorization URL (which Chromium opens).
    const child = spawn(process.execPath, [path.resolve("node_modules/mcp-remote/dist/client.js"), endpoint, String(callbackPort)], {
      env: { NODE_ENV: "production", HOME: configDir, MCP_REMOTE_CONFIG_DIR: configDir, PATH: emptyPath, DISPLAY: "" },
      // stdin stays open: mcp-remote shuts down when it ends.
      stdio: ["pipe", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    try {
      const until = async (pattern: RegExp) => {
        // Polls the output for the condition (up to 120 s on a busy machine), not a fixed sleep.
        for (let i = 0; i < 1200 && !pattern.test(output); i++) await new Promise((r) => setTimeout(r, 100));
        const match = pattern.exec(output);
        expect(match, output).not.toBeNull();
        return match!;
      };
      const authorizationUrl = (await until(/Please authorize this client by visiting:\s*\n(\S+)/))[1];
      await page.goto(authorizationUrl, { timeout: PAGE_WAIT_MS });
      await page.getByRole("heading", { name: "Allow MCP CLI Client?" }).waitFor();
      await page.getByText(`It will be sent back to localhost:${callbackPort}.`).waitFor();
      await page.getByRole("button", { name: "Allow" }).click();
      await page.waitForURL((url) => url.port === String(callbackPort), { timeout: PAGE_WAIT_MS });
      await until(/Exiting OK/);
      expect(await exited, output).toBe(0);
      const listed = /Tools: (\{[\s\S]*?\n\})/.exec(output);
      expect(listed, output).not.toBeNull();
      const viaRemote = (JSON.parse(listed![1]).tools as { name: string }[]).map((tool) => tool.name).sort();
      expect(viaRemote).toEqual(["get_customer", "list_customers"]);
      expect(viaRemote).toEqual(await keyedToolNames(new URL(endpoint)));
    } finally {
      child.kill();
      rmSync(configDir, { recursive: true, force: true });
      rmSync(emptyPath, { recursive: true, force: true });
    }
  }, 240_000);
});
