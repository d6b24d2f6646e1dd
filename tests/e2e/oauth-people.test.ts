import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, BrowserContext } from "playwright-core";
import { freePort } from "@/lib/net/free-port";
import { ensureBuild, type RunningApp, startApp } from "@/tests/e2e/support/next-app";
import { launchBrowser, newContext } from "@/tests/e2e/support/browser";
import { freshDatabase } from "@/tests/e2e/support/fresh-database";
import { allowInBrowser, authorizationRequest, exchangeCode, PAGE_WAIT_MS, type Person, registerPublicClient } from "@/tests/e2e/support/oauth-browser";
import { toolNames } from "@/tests/helpers/oauth-flow";

/**
 * Issue 21: an MCP client's OAuth sign-in as users have it. One app started as a default
 * install starts — its own empty database, no PUBLIC_URL, no signing secret configured (it
 * generates its own, as `npm start` does) — reached as `localhost` and as `127.0.0.1`; the people
 * signing in are made the ways users make them: the first-run owner on /setup, people made
 * through the admin API (member, admin, owner of the org, added to the workspace), and a person
 * who joined by an invitation link. Each flow: a public client registered by DCR with a loopback
 * redirect, the browser at /authorize (PKCE S256, a resource) before signing in, /signin, the
 * consent page, Allow; the code exchanged for a token that lists the server's tools.
 */

let app: RunningApp;
let browser: Browser;
let drop: () => Promise<void>;
let port: number;
let orgId: string;
let serverId: string;
const people: Record<string, Person> = {};
const INSTANCE_KEY = "oauth-people-instance-key";
const PASSWORD = "correct horse battery staple";
const hosts = () => ({ localhost: `http://localhost:${port}`, loopback: `http://127.0.0.1:${port}` });

/** The admin API as the instance credential, over HTTP. */
async function admin(path: string, body: unknown): Promise<any> {
  const res = await fetch(`${hosts().loopback}/api/v1${path}`, { method: "POST", headers: { authorization: `Bearer ${INSTANCE_KEY}`, "content-type": "application/json" }, body: JSON.stringify(body) });
  const json = await res.json();
  if (res.status !== 201 && res.status !== 200) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function inNewContext<T>(base: string, work: (context: BrowserContext) => Promise<T>): Promise<T> {
  const context = await newContext(browser, base);
  context.setDefaultTimeout(PAGE_WAIT_MS);
  try {
    return await work(context);
  } finally {
    await context.close();
  }
}

/** The first-run owner, made on /setup as the first person to open a new install does. */
async function setUpOwner(): Promise<Person> {
  const owner = { email: "first-owner@example.test", password: PASSWORD };
  await inNewContext(hosts().localhost, async (context) => {
    const page = await context.newPage();
    await page.goto("/setup");
    await page.getByLabel("Email").fill(owner.email);
    await page.getByLabel("Name").fill("First Owner");
    await page.getByLabel("Password", { exact: true }).fill(owner.password);
    await page.getByLabel("Confirm password").fill(owner.password);
    await page.getByRole("button", { name: "Create owner account" }).click();
    await page.getByRole("navigation", { name: "Main" }).waitFor();
  });
  return owner;
}

/** A person made through the admin API with a password, given `role` in the org and added to the workspace. */
async function apiPerson(role: "member" | "admin" | "owner", workspaceId: string): Promise<Person> {
  const person = { email: `api-${role}@example.test`, password: PASSWORD };
  const user = await admin("/users", { email: person.email, password: person.password });
  await admin(`/orgs/${orgId}/members`, { userId: user.id, role });
  await admin(`/workspaces/${workspaceId}/members`, { userId: user.id });
  return person;
}

/** A person with no account who opens an invitation link, makes an account there and joins. */
async function invitedPerson(workspaceId: string): Promise<Person> {
  const person = { email: "invited@example.test", password: PASSWORD };
  const invitation = await admin(`/orgs/${orgId}/invitations`, { email: person.email, role: "member", workspaceIds: [workspaceId] });
  await inNewContext(hosts().loopback, async (context) => {
    const page = await context.newPage();
    await page.goto(invitation.acceptUrl);
    await page.getByLabel("Your name").fill("Invited Person");
    await page.getByLabel("Password").fill(person.password);
    await page.getByRole("button", { name: "Create account and join" }).click();
    await page.waitForURL((url) => url.pathname === "/signin");
  });
  return person;
}

beforeAll(async () => {
  await ensureBuild();
  port = await freePort();
  const database = await freshDatabase(inject("databaseUrl"));
  drop = database.drop;
  [app, browser] = await Promise.all([
    startApp({
      databaseUrl: database.url,
      port,
      // INSTANCE_API_KEY: the admin API is how this test makes people, as an operator's scripts
      // would. NEXTAUTH_SECRET cleared: the test run sets one for apps sharing its database; a
      // default install generates its own, and that is the install under test here.
      // DB_CONNECT_TIMEOUT_MS: on a busy test machine the default 1 s fails page renders at random.
      env: { INSTANCE_API_KEY: INSTANCE_KEY, NEXTAUTH_SECRET: "", DB_CONNECT_TIMEOUT_MS: "10000" },
    }),
    launchBrowser(),
  ]);
  people.setup = await setUpOwner();
  const org = (await (await fetch(`${hosts().loopback}/api/v1/orgs`, { headers: { authorization: `Bearer ${INSTANCE_KEY}` } })).json()).items[0];
  orgId = org.id;
  const workspace = (await (await fetch(`${hosts().loopback}/api/v1/orgs/${orgId}/workspaces`, { headers: { authorization: `Bearer ${INSTANCE_KEY}` } })).json()).items[0];
  const connector = await admin(`/orgs/${orgId}/connectors`, {
    type: "http",
    name: "CRM",
    config: { baseUrl: "https://api.example.com" },
    tools: ["get_customer", "list_customers"].map((name) => ({ name, request: { method: "GET", path: `/${name}` } })),
  });
  serverId = (await admin(`/workspaces/${workspace.id}/servers`, { name: "Support", connectorIds: [connector.id] })).id;
  for (const role of ["member", "admin", "owner"] as const) people[`api-${role}`] = await apiPerson(role, workspace.id);
  people.invited = await invitedPerson(workspace.id);
}, 900_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await drop?.();
});

/** Who signs in, at which host, asking which scope. */
const FLOWS: [person: string, host: "localhost" | "loopback", scope: string][] = [
  ["setup", "localhost", "mcp offline_access"],
  ["api-member", "loopback", "mcp offline_access"],
  ["api-member", "localhost", "mcp"],
  ["api-admin", "localhost", "mcp offline_access"],
  ["api-owner", "loopback", "mcp"],
  ["invited", "loopback", "mcp offline_access"],
];

describe("OAuth sign-in of an MCP client on a default install", () => {
  it.each(FLOWS)("%s signs in at %s with scope '%s', allows, and the client lists the server's tools", async (who, host, scope) => {
    const base = hosts()[host];
    const resource = `${base}/mcp/${serverId}`;
    const client = await registerPublicClient(base, "People App", `http://127.0.0.1:${await freePort()}/callback`);
    const request = await authorizationRequest(base, client, scope, resource);
    const callback = await inNewContext(base, (context) => allowInBrowser(context, request, client, "People App", people[who]));
    expect(callback.get("error"), callback.toString()).toBeNull();
    expect(callback.get("state")).toBe(request.state);
    expect(callback.get("iss")).toBe(base);
    const tokens = await exchangeCode(base, client, request, callback.get("code")!, resource);
    expect(Boolean(tokens.refresh_token)).toBe(scope.includes("offline_access"));
    expect(await toolNames(base, `/mcp/${serverId}`, tokens.access_token)).toEqual(["get_customer", "list_customers"]);
  }, 240_000);

  it("better-auth's limiter is off: the log never says every visitor shares one bucket", () => {
    expect(app.output()).not.toContain("Rate limiting could not determine a client IP");
  });

  it("an app that names no MCP server (no resource) is told it must name one", async () => {
    const base = hosts().localhost;
    const client = await registerPublicClient(base, "Vague App", `http://127.0.0.1:${await freePort()}/callback`);
    const request = await authorizationRequest(base, client, "mcp", null);
    await inNewContext(base, async (context) => {
      const page = await context.newPage();
      await page.goto(request.url.href);
      await page.waitForURL((url) => url.pathname === "/signin");
      await page.getByLabel("Email").fill(people["api-member"].email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByText("Vague App did not say which MCP server it wants").waitFor();
      await page.getByText("resource", { exact: true }).waitFor();
      expect(await page.getByRole("button", { name: "Allow", exact: true }).count()).toBe(0);
    });
  }, 240_000);
});
