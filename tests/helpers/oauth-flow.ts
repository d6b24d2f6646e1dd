import { createHash, randomBytes } from "node:crypto";
import { expect } from "vitest";
import { sessionCookieName } from "@/lib/auth/session-token";
import { createSessionToken } from "@/lib/auth/sessions";
import { clientRedirectOf } from "@/lib/oauth/consent";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";

/**
 * The steps of an OAuth client against the authorization server over real HTTP (the MCP
 * clients' part), for the integration tests: registration, PKCE, authorize, token.
 */

export const REDIRECT = "http://127.0.0.1:9/callback";

export interface OauthSite {
  origin: string;
  metadata: Record<string, any>;
}

export async function loadSite(origin: string): Promise<OauthSite> {
  return { origin, metadata: await (await fetch(`${origin}/.well-known/oauth-authorization-server`)).json() };
}

/** The app on a real port with the authorization server on (PUBLIC_URL = its origin), and its metadata. */
export async function startOauthSite(): Promise<{ app: RouteServer; site: OauthSite }> {
  const app = await startRouteServer();
  process.env.PUBLIC_URL = app.origin;
  process.env.OAUTH_ENABLED = "true";
  return { app, site: await loadSite(app.origin) };
}

export async function stopOauthSite(app: RouteServer | undefined): Promise<void> {
  delete process.env.PUBLIC_URL;
  delete process.env.OAUTH_ENABLED;
  await app?.close();
}

/** The session cookie of a user of ours signed in to the admin console (one better-auth session). */
export async function sessionCookieFor(userId: string): Promise<string> {
  return `${sessionCookieName()}=${await createSessionToken({ id: userId })}`;
}

export async function registerClient(site: OauthSite, body: Record<string, unknown>): Promise<Response> {
  return fetch(site.metadata.registration_endpoint, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

/** A registered public native client (what the MCP SDKs and mcp-remote register). */
export async function publicClient(site: OauthSite, name = "Test client"): Promise<{ client_id: string }> {
  const res = await registerClient(site, { redirect_uris: [REDIRECT], token_endpoint_auth_method: "none", client_name: name, grant_types: ["authorization_code", "refresh_token"], application_type: "native" });
  expect(res.status).toBe(201);
  return res.json();
}

export function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** Where a better-auth endpoint sends the browser: a Location, or `{ redirect, url }` to a fetch. */
export async function redirectOf(site: OauthSite, res: Response): Promise<URL> {
  const location = res.headers.get("location");
  if (location) return new URL(location, site.origin);
  const body = await res.json();
  expect(body.url, JSON.stringify(body)).toBeTruthy();
  return new URL(body.url, site.origin);
}

export function authorizeUrl(site: OauthSite, params: Record<string, string>): URL {
  const url = new URL(site.metadata.authorization_endpoint);
  const all = { response_type: "code", redirect_uri: REDIRECT, code_challenge_method: "S256", scope: "mcp offline_access", state: "s1", ...params };
  for (const [k, v] of Object.entries(all)) url.searchParams.set(k, v);
  return url;
}

export async function postForm(url: string, fields: Record<string, string>): Promise<Response> {
  return fetch(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields) });
}

export function exchangeCode(site: OauthSite, fields: { code: string; clientId: string; verifier: string; resource: string }): Promise<Response> {
  return postForm(site.metadata.token_endpoint, { grant_type: "authorization_code", code: fields.code, redirect_uri: REDIRECT, client_id: fields.clientId, code_verifier: fields.verifier, resource: fields.resource });
}

/** The consent page's form, posted as the browser does (same origin), with the user's choice. */
export function decide(site: OauthSite, cookie: string, oauthQuery: string, fields: Record<string, string | string[]> = {}): Promise<Response> {
  const body = new URLSearchParams({ oauth_query: oauthQuery, decision: "allow" });
  for (const [key, value] of Object.entries(fields)) {
    body.delete(key);
    for (const one of Array.isArray(value) ? value : [value]) body.append(key, one);
  }
  return fetch(`${site.origin}/oauth/consent/decide`, {
    method: "POST",
    headers: { cookie, "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" },
    body,
    redirect: "manual",
  });
}

export interface CodeRequest {
  cookie: string;
  clientId: string;
  challenge: string;
  resource: string;
  /** The consent page's fields (workspace, server…), when it asks. */
  choice?: Record<string, string | string[]>;
  state?: string;
}

/** Authorize as `cookie`'s user, allow on the consent page (when asked) with `choice`: the code, and whether consent was asked. */
export async function authorize(site: OauthSite, input: CodeRequest): Promise<{ code: string; askedConsent: boolean }> {
  const start = await fetch(authorizeUrl(site, { client_id: input.clientId, code_challenge: input.challenge, resource: input.resource, state: input.state ?? "s1" }), { headers: { cookie: input.cookie }, redirect: "manual" });
  let back = await redirectOf(site, start);
  const askedConsent = back.pathname === "/oauth/consent";
  if (askedConsent) {
    const answer = await decide(site, input.cookie, back.search.slice(1), input.choice);
    const html = await answer.text();
    expect(answer.status, html).toBe(200);
    back = new URL(clientRedirectOf(html)!);
  }
  expect(back.origin + back.pathname).toBe(REDIRECT);
  expect(back.searchParams.get("state")).toBe(input.state ?? "s1");
  expect(back.searchParams.get("iss")).toBe(site.origin); // RFC 9207
  expect(back.searchParams.get("error"), back.search).toBeNull();
  return { code: back.searchParams.get("code")!, askedConsent };
}

export async function authorizationCode(site: OauthSite, input: CodeRequest): Promise<string> {
  return (await authorize(site, input)).code;
}

/** Authorize, exchange the code: the token response (asserted 200). */
export async function tokensFor(site: OauthSite, input: Omit<CodeRequest, "challenge">): Promise<{ access_token: string; refresh_token: string }> {
  const { verifier, challenge } = pkce();
  const code = await authorizationCode(site, { ...input, challenge });
  const res = await exchangeCode(site, { code, clientId: input.clientId, verifier, resource: input.resource });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body;
}

const INIT = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } };

/** One JSON-RPC request to an MCP endpoint with a bearer (2025-11-25, stateless): status, headers and the parsed message. */
export async function mcpRpc(origin: string, path: string, bearer: string, method: string, params: object = method === "initialize" ? INIT : {}) {
  const res = await fetch(`${origin}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const text = await res.text();
  let message: any = null;
  try {
    message = JSON.parse(text.startsWith("event:") ? text.split("\n").find((l) => l.startsWith("data: "))!.slice(6) : text);
  } catch {
    // a 401 without a JSON body
  }
  return { status: res.status, headers: res.headers, message };
}

/** The sorted tool names `bearer` gets at `path`. */
export async function toolNames(origin: string, path: string, bearer: string): Promise<string[]> {
  const { status, message } = await mcpRpc(origin, path, bearer, "tools/list");
  expect(status, JSON.stringify(message)).toBe(200);
  return (message.result.tools as { name: string }[]).map((t) => t.name).sort();
}
