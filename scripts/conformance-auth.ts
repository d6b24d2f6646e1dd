/**
 * npm run conformance:auth: the official MCP conformance suite's authorization-server scenarios
 * (`conformance authorization`: authorization-server-metadata-endpoint and
 * authorization-code-grant) against the product's own OAuth authorization server. Both must pass.
 *
 * The product runs as `npm start` runs it (the production build, no PUBLIC_URL); a person is
 * made through the admin API with the instance credential, as an operator would; a public client
 * is registered by dynamic registration with the suite's loopback redirect URI. The suite prints
 * the authorization URL and waits for its callback: Chromium (playwright-core, Debian's
 * chromium) plays the person — signs in on /signin, clicks Allow on the consent page — and the
 * browser lands on the suite's own callback server.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { freePort } from "@/lib/net/free-port";
import { launchBrowser, newContext } from "@/tests/e2e/support/browser";
import { ensureBuild, type RunningApp, startApp } from "@/tests/e2e/support/next-app";
import { PAGE_WAIT_MS, registerPublicClient, signInHere } from "@/tests/e2e/support/oauth-browser";
import { createSwitchboardClient, ok } from "@switchboard/client";
import { ensureDatabase } from "./conformance/database";
import { ensureSuite, SUITE_VERSION } from "./conformance/run-suite";
import { runMain } from "./conformance/run-main";

const ROOT = process.cwd();
const SCENARIOS = ["authorization-server-metadata-endpoint", "authorization-code-grant"];

if (process.argv.includes("--help") || process.argv.includes("-h")) {
  console.log(`Usage: npm run conformance:auth

Runs the MCP conformance suite's (${SUITE_VERSION}) authorization-server scenarios
(${SCENARIOS.join(", ")}) against Switchboard's own OAuth authorization server:
builds the app if needed (as npm start does), starts it without PUBLIC_URL, makes a person
through the admin API, registers a public client by dynamic registration, and signs the person
in and clicks Allow in Chromium when the suite asks for the browser step. Every scenario must pass.

Needs Debian's chromium (CHROMIUM_PATH to use another) and Node >= 22 for the suite (installed
on first use into .conformance/). DATABASE_URL: use that database instead of a throwaway
embedded PostgreSQL.`);
  process.exit(0);
}

const log = (line: string) => console.log(`[conformance:auth] ${line}`);
const cleanups: Array<() => Promise<void>> = [];
const INSTANCE_KEY = `conformance-${randomBytes(16).toString("hex")}`;
const person = { email: `conformance-${randomBytes(4).toString("hex")}@example.test`, password: randomBytes(18).toString("base64url") };

/** An org with one workspace and one MCP server, and the person: a member of both. The server's URL. */
async function makePersonAndServer(base: string): Promise<string> {
  const api = createSwitchboardClient({ baseUrl: base, token: INSTANCE_KEY });
  const org = await ok(api.POST("/orgs", { body: { name: "Conformance", slug: `conformance-${randomBytes(3).toString("hex")}` } }));
  const workspace = await ok(api.POST("/orgs/{orgId}/workspaces", { params: { path: { orgId: org.id } }, body: { name: "Main", slug: "main" } }));
  const connector = await ok(
    api.POST("/orgs/{orgId}/connectors", {
      params: { path: { orgId: org.id } },
      body: { type: "http", name: "Echo", config: { baseUrl: "https://api.example.com" }, tools: [{ name: "echo", request: { method: "GET", path: "/echo" } }] },
    }),
  );
  const server = await ok(api.POST("/workspaces/{workspaceId}/servers", { params: { path: { workspaceId: workspace.id } }, body: { name: "Conformance", connectorIds: [connector.id] } }));
  const user = await ok(api.POST("/users", { body: { email: person.email, password: person.password } }));
  if (!("id" in user)) throw new Error("the admin API made an invitation instead of a person");
  await ok(api.POST("/orgs/{orgId}/members", { params: { path: { orgId: org.id } }, body: { userId: user.id, role: "member" } }));
  await ok(api.POST("/workspaces/{workspaceId}/members", { params: { path: { workspaceId: workspace.id } }, body: { userId: user.id } }));
  return `${base}/mcp/${server.id}`;
}

/** Resolves with the first URL printed after the suite asks for the browser. */
function authorizationUrlOf(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /complete the authentication process\.\s*\n(\S+)/.exec(output);
      if (match) resolve(match[1]);
    });
    child.on("exit", (code) => reject(new Error(`the suite exited (${code}) before asking for the browser`)));
  });
}

/** The person's part: sign in when asked, Allow, and wait until the browser is at the suite's callback. */
async function browserStep(authorizationUrl: string, base: string, callbackPort: number): Promise<void> {
  const browser = await launchBrowser();
  try {
    const context = await newContext(browser, base);
    context.setDefaultTimeout(PAGE_WAIT_MS);
    const page = await context.newPage();
    await page.goto(authorizationUrl, { timeout: PAGE_WAIT_MS });
    await page.waitForURL((url) => url.pathname === "/signin");
    await signInHere(page, person);
    await page.getByRole("heading", { name: /^Allow .+\?$/ }).waitFor();
    await page.getByRole("button", { name: "Allow", exact: true }).click();
    await page.waitForURL((url) => url.port === String(callbackPort) && url.pathname === "/callback", { timeout: PAGE_WAIT_MS });
    log("the browser reached the suite's callback");
  } finally {
    await browser.close();
  }
}

async function main(): Promise<number> {
  const suite = ensureSuite(path.join(ROOT, ".conformance"), log);
  const databaseUrl = await ensureDatabase(cleanups);
  log("building the app if its sources changed (as npm start does)");
  await ensureBuild();
  // INSTANCE_API_KEY: the admin API is how this run makes its person, as an operator's script would.
  const app: RunningApp = await startApp({ databaseUrl, env: { INSTANCE_API_KEY: INSTANCE_KEY, LOG_LEVEL: "warn" } });
  cleanups.push(() => app.stop());
  const base = app.baseUrl;
  const resource = await makePersonAndServer(base);
  const callbackPort = await freePort();
  const client = await registerPublicClient(base, "MCP conformance suite", `http://127.0.0.1:${callbackPort}/callback`);
  log(`suite against ${base} (client ${client.clientId}, resource ${resource})`);
  const child = spawn(suite.node, [suite.cli, "authorization", "--url", base, "--client-id", client.clientId, "--port", String(callbackPort), "--resource", resource], { stdio: ["ignore", "pipe", "inherit"] });
  child.stdout!.pipe(process.stdout);
  const exited = new Promise<number>((resolve) => child.on("exit", (code) => resolve(code ?? 1)));
  cleanups.push(async () => void (child.exitCode === null && child.kill()));
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await browserStep(await authorizationUrlOf(child), base, callbackPort);
  const code = await exited;
  const missing = SCENARIOS.filter((name) => !new RegExp(`✓ ${name}: \\d+ passed, 0 failed`).test(output));
  if (code !== 0 || missing.length > 0) {
    log(`failed: exit ${code}${missing.length ? `, not passed: ${missing.join(", ")}` : ""}\n${app.output().slice(-3000)}`);
    return code || 1;
  }
  log(`passed: ${SCENARIOS.join(", ")}`);
  return 0;
}

runMain(main, cleanups, log);
