import { createHash, randomBytes } from "node:crypto";
import type { BrowserContext, Page } from "playwright-core";

/**
 * An MCP client's OAuth sign-in as a user has it, in steps a browser test (and the conformance
 * runner's browser step) can share: dynamic registration of a public client with a loopback
 * redirect, the authorization URL with PKCE S256 and a resource, the person signing in on
 * /signin in Chromium and clicking Allow, the code exchanged for tokens.
 */

/** A busy machine (CI, other work running) renders pages slowly: wait for what matters, long. */
export const PAGE_WAIT_MS = 90_000;

export interface Person {
  email: string;
  password: string;
}

export interface RegisteredClient {
  clientId: string;
  redirectUri: string;
}

export async function authServerMetadata(base: string): Promise<Record<string, any>> {
  const res = await fetch(`${base}/.well-known/oauth-authorization-server`);
  if (res.status !== 200) throw new Error(`${base}: authorization server metadata answered ${res.status}`);
  return res.json();
}

/** RFC 7591 registration of a public client, as the MCP SDKs and mcp-remote register. */
export async function registerPublicClient(base: string, name: string, redirectUri: string, headers: Record<string, string> = {}): Promise<RegisteredClient> {
  const { registration_endpoint } = await authServerMetadata(base);
  const res = await fetch(registration_endpoint, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ client_name: name, redirect_uris: [redirectUri], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"], response_types: ["code"] }),
  });
  const body = await res.json();
  if (res.status !== 201) throw new Error(`registration answered ${res.status}: ${JSON.stringify(body)}`);
  return { clientId: body.client_id, redirectUri };
}

export interface AuthorizationRequest {
  url: URL;
  verifier: string;
  state: string;
}

/** The authorization URL a client sends the browser to: PKCE S256, `scope`, and `resource` unless null. */
export async function authorizationRequest(base: string, client: RegisteredClient, scope: string, resource: string | null): Promise<AuthorizationRequest> {
  const { authorization_endpoint } = await authServerMetadata(base);
  const verifier = randomBytes(32).toString("base64url");
  const state = randomBytes(8).toString("hex");
  const url = new URL(authorization_endpoint);
  const params: Record<string, string> = {
    response_type: "code",
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
    scope,
    state,
  };
  if (resource) params.resource = resource;
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return { url, verifier, state };
}

/** Fills the sign-in page the browser is on (it returns to the authorization request by itself). */
export async function signInHere(page: Page, person: Person): Promise<void> {
  await page.getByLabel("Email").fill(person.email, { timeout: PAGE_WAIT_MS });
  await page.getByLabel("Password").fill(person.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/**
 * The browser at the authorization URL: signs in when asked, waits for the consent page's
 * "Allow <client>?" and clicks Allow; returns the query the client's redirect URI received.
 * The redirect URI is answered inside the browser (nothing has to listen on it).
 */
export async function allowInBrowser(context: BrowserContext, request: AuthorizationRequest, client: RegisteredClient, clientName: string, person: Person | null): Promise<URLSearchParams> {
  const page = await context.newPage();
  try {
    let callback: URL | null = null;
    const redirect = new URL(client.redirectUri);
    await page.route(`${redirect.origin}/**`, async (route) => {
      callback = new URL(route.request().url());
      await route.fulfill({ status: 200, contentType: "text/plain", body: "You can close this window." });
    });
    await page.goto(request.url.href, { timeout: PAGE_WAIT_MS });
    const heading = page.getByRole("heading", { name: `Allow ${clientName}?` });
    if (person) {
      await page.waitForURL((url) => url.pathname === "/signin", { timeout: PAGE_WAIT_MS });
      await signInHere(page, person);
    }
    await heading.waitFor({ timeout: PAGE_WAIT_MS });
    await page.getByRole("button", { name: "Allow", exact: true }).click();
    // Back at the client, or a refusal page (then its words are the failure, not a timeout).
    const refused = page.getByText(/Start again from the app|not found|Choose a workspace/).first();
    const landed = await Promise.race([
      page.waitForURL((url) => url.href.startsWith(client.redirectUri), { timeout: PAGE_WAIT_MS }).then(() => true),
      refused.waitFor({ timeout: PAGE_WAIT_MS }).then(() => false),
    ]);
    if (!landed) throw new Error(`Allow was refused: ${await refused.textContent()}`);
    return (callback as URL | null)?.searchParams ?? new URL(page.url()).searchParams;
  } finally {
    await page.close();
  }
}

/** The code exchanged at the token endpoint: the token response's JSON (throws unless 200). */
export async function exchangeCode(base: string, client: RegisteredClient, request: AuthorizationRequest, code: string, resource: string | null): Promise<{ access_token: string; refresh_token?: string; scope?: string }> {
  const { token_endpoint } = await authServerMetadata(base);
  const form = new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: client.redirectUri, client_id: client.clientId, code_verifier: request.verifier });
  if (resource) form.set("resource", resource);
  const res = await fetch(token_endpoint, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form });
  const body = await res.json();
  if (res.status !== 200) throw new Error(`token answered ${res.status}: ${JSON.stringify(body)}`);
  return body;
}
