import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { parse } from "yaml";
import { launchBrowser, newContext } from "@/tests/e2e/support/browser";
import { PAGE_WAIT_MS, signInHere } from "@/tests/e2e/support/oauth-browser";
import { createSwitchboardClient, ok } from "@switchboard/client";
import type { Suite, Wire } from "./run-suite";

/**
 * What `npm run conformance:client-auth` needs before the first scenario: the scenarios (from
 * the pinned suite's own requirement sets) and, in the running app, an organization with a
 * workspace and one person — an owner, so they may connect `shared` connectors too — with their
 * API key and a browser session of theirs.
 */

/** Every scored `auth/` client scenario of the revision, as the suite's `requirements/<revision>.yaml` lists it. */
export function authScenarios(suite: Suite, wire: Wire): string[] {
  const file = path.join(path.dirname(path.dirname(suite.cli)), "requirements", `${wire}.yaml`);
  const requirements = parse(fs.readFileSync(file, "utf8")) as { client?: string[] };
  return (requirements.client ?? []).filter((name) => name.startsWith("auth/"));
}

export interface Person {
  orgId: string;
  workspaceId: string;
  /** The person's own API key (the /mcp calls and the admin API calls of the client command). */
  key: string;
  /** Their browser session: the Cookie header the callback and the connect link see. */
  cookie: string;
}

export async function makePerson(base: string, instanceKey: string): Promise<Person> {
  const api = createSwitchboardClient({ baseUrl: base, token: instanceKey });
  const suffix = randomBytes(3).toString("hex");
  const email = `conformance-${suffix}@example.test`;
  const password = randomBytes(18).toString("base64url");
  const org = await ok(api.POST("/orgs", { body: { name: "Conformance client auth", slug: `conformance-client-auth-${suffix}` } }));
  const workspace = await ok(api.POST("/orgs/{orgId}/workspaces", { params: { path: { orgId: org.id } }, body: { name: "Main", slug: "main" } }));
  const user = await ok(api.POST("/users", { body: { email, password } }));
  if (!("id" in user)) throw new Error("the admin API made an invitation instead of a person");
  await ok(api.POST("/orgs/{orgId}/members", { params: { path: { orgId: org.id } }, body: { userId: user.id, role: "owner" } }));
  await ok(api.POST("/workspaces/{workspaceId}/members", { params: { path: { workspaceId: workspace.id } }, body: { userId: user.id } }));
  const key = await ok(api.POST("/workspaces/{workspaceId}/api-keys", { params: { path: { workspaceId: workspace.id } }, body: { name: "conformance client", userId: user.id } }));
  return { orgId: org.id, workspaceId: workspace.id, key: key.key, cookie: await sessionCookie(base, email, password) };
}

/** Signs the person in on the real sign-in page (Chromium) and keeps the session cookie. */
async function sessionCookie(base: string, email: string, password: string): Promise<string> {
  const browser = await launchBrowser();
  try {
    const context = await newContext(browser, base);
    const page = await context.newPage();
    await page.goto("/signin", { timeout: PAGE_WAIT_MS });
    await signInHere(page, { email, password });
    await page.waitForURL((url) => url.pathname !== "/signin", { timeout: PAGE_WAIT_MS });
    const cookies = await context.cookies(base);
    if (cookies.length === 0) throw new Error("signing in set no cookie");
    return cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  } finally {
    await browser.close();
  }
}
