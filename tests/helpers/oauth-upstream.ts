import { randomBytes } from "node:crypto";
import type http from "node:http";
import express, { type Response } from "express";
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { mcpAuthRouter, getOAuthProtectedResourceMetadataUrl } from "@modelcontextprotocol/sdk/server/auth/router.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import type { OAuthServerProvider, AuthorizationParams } from "@modelcontextprotocol/sdk/server/auth/provider.js";
import type { OAuthRegisteredClientsStore } from "@modelcontextprotocol/sdk/server/auth/clients.js";
import type { OAuthClientInformationFull, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { InvalidGrantError, InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";

/**
 * An upstream MCP server behind its own OAuth authorization server on 127.0.0.1, built on the
 * MCP SDK (v1)'s auth pieces: `mcpAuthRouter` (RFC 8414 and RFC 9728 metadata, dynamic
 * registration, /authorize, /token with PKCE checked by the router, /revoke) and
 * `requireBearerAuth` (401 with `WWW-Authenticate: resource_metadata`). Its sign-in page asks
 * for a user name; its `whoami` tool answers with the signed-in upstream identity. Access
 * tokens live `accessTtlSec`; refresh tokens rotate; `revokeUser` ends a person's grants.
 */

interface Grant {
  user: string;
  clientId: string;
  scopes: string[];
  resource?: string;
  revoked: boolean;
}

export interface OAuthUpstream {
  origin: string;
  mcpUrl: string;
  /** Every access token issued (to check none reaches the database in clear). */
  issued: string[];
  refreshes: number;
  revocations: number;
  registrations: number;
  /** The redirect URIs each dynamic registration named, in order. */
  registeredRedirects: string[][];
  /** The `resource` of each authorization request. */
  resources: (string | undefined)[];
  /** The `scope` of each authorization request. */
  scopesAsked: string[];
  /** 403 insufficient_scope answers sent (stepUpTool, POST /api/notes). */
  stepUpChallenges: number;
  /** Bodies of client_credentials token requests. */
  ccRequests: Record<string, string>[];
  revokeUser(user: string): void;
  close(): Promise<void>;
}

export interface OAuthUpstreamOptions {
  accessTtlSec?: number;
  /** Each upstream user gets their own resources, template and prompt (named after them). */
  perUserCatalog?: boolean;
  /** An `admin_action` tool that answers 403 insufficient_scope (scope "profile admin") to a token without `admin`. */
  stepUpTool?: boolean;
}

export async function startOAuthUpstream(opts: OAuthUpstreamOptions = {}): Promise<OAuthUpstream> {
  const ttl = opts.accessTtlSec ?? 3600;
  const clients = new Map<string, OAuthClientInformationFull>();
  const codes = new Map<string, { grant: Grant; challenge: string; redirectUri: string }>();
  const access = new Map<string, { grant: Grant; expiresAt: number }>();
  const refresh = new Map<string, Grant>();
  const state: OAuthUpstream = { origin: "", mcpUrl: "", issued: [], refreshes: 0, revocations: 0, registrations: 0, registeredRedirects: [], resources: [], scopesAsked: [], stepUpChallenges: 0, ccRequests: [], revokeUser: () => undefined, close: async () => undefined };

  const issue = (grant: Grant): OAuthTokens => {
    const token = `at_${randomBytes(16).toString("hex")}`;
    const refreshToken = `rt_${randomBytes(16).toString("hex")}`;
    access.set(token, { grant, expiresAt: Date.now() + ttl * 1000 });
    refresh.set(refreshToken, grant);
    state.issued.push(token, refreshToken);
    return { access_token: token, token_type: "Bearer", expires_in: ttl, refresh_token: refreshToken, scope: grant.scopes.join(" ") };
  };

  const clientsStore: OAuthRegisteredClientsStore = {
    getClient: (id) => clients.get(id),
    registerClient: (client) => {
      const full = { ...client, client_id: `client_${randomBytes(6).toString("hex")}`, client_id_issued_at: Math.floor(Date.now() / 1000) } as OAuthClientInformationFull;
      clients.set(full.client_id, full);
      state.registrations++;
      state.registeredRedirects.push(client.redirect_uris.map(String));
      return full;
    },
  };

  const provider: OAuthServerProvider = {
    clientsStore,
    async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response) {
      state.resources.push(params.resource?.href);
      state.scopesAsked.push((params.scopes ?? []).join(" "));
      const hidden = { client_id: client.client_id, redirect_uri: params.redirectUri, state: params.state ?? "", challenge: params.codeChallenge, scopes: (params.scopes ?? []).join(" "), resource: params.resource?.href ?? "" };
      const fields = Object.entries(hidden).map(([k, v]) => `<input type="hidden" name="${k}" value="${String(v).replace(/"/g, "&quot;")}">`).join("");
      res.status(200).type("html").send(`<!doctype html><title>Upstream sign-in</title><form method="post" action="/login">${fields}<label>User <input name="username" id="username"></label><button type="submit" id="signin">Sign in</button></form>`);
    },
    async challengeForAuthorizationCode(_client, code) {
      const entry = codes.get(code);
      if (!entry) throw new InvalidGrantError("unknown code");
      return entry.challenge;
    },
    async exchangeAuthorizationCode(client, code) {
      const entry = codes.get(code);
      codes.delete(code);
      if (!entry || entry.grant.clientId !== client.client_id) throw new InvalidGrantError("unknown code");
      return issue(entry.grant);
    },
    async exchangeRefreshToken(client, refreshToken) {
      const grant = refresh.get(refreshToken);
      refresh.delete(refreshToken); // rotation: a refresh token works once
      if (!grant || grant.revoked || grant.clientId !== client.client_id) throw new InvalidGrantError("refresh token revoked or unknown");
      state.refreshes++;
      return issue(grant);
    },
    async verifyAccessToken(token) {
      const entry = access.get(token);
      if (!entry || entry.grant.revoked || entry.expiresAt < Date.now()) throw new InvalidTokenError("invalid or expired token");
      return { token, clientId: entry.grant.clientId, scopes: entry.grant.scopes, expiresAt: Math.floor(entry.expiresAt / 1000), extra: { user: entry.grant.user } };
    },
    async revokeToken(_client, request) {
      const grant = refresh.get(request.token) ?? access.get(request.token)?.grant;
      if (grant) {
        grant.revoked = true;
        state.revocations++;
      }
    },
  };

  const app = express();
  app.set("trust proxy", false);
  const server: http.Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const port = (server.address() as { port: number }).port;
  state.origin = `http://127.0.0.1:${port}`;
  state.mcpUrl = `${state.origin}/mcp`;
  app.use(mcpAuthRouter({ provider, issuerUrl: new URL(state.origin), resourceServerUrl: new URL(state.mcpUrl), scopesSupported: ["profile"] }));
  app.post("/login", express.urlencoded({ extended: false }), (req, res) => {
    const b = req.body as Record<string, string>;
    const grant: Grant = { user: b.username, clientId: b.client_id, scopes: b.scopes ? b.scopes.split(" ") : [], resource: b.resource || undefined, revoked: false };
    const code = `code_${randomBytes(12).toString("hex")}`;
    codes.set(code, { grant, challenge: b.challenge, redirectUri: b.redirect_uri });
    const target = new URL(b.redirect_uri);
    target.searchParams.set("code", code);
    if (b.state) target.searchParams.set("state", b.state);
    res.redirect(302, target.href);
  });
  const bearer = requireBearerAuth({ verifier: provider, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(new URL(state.mcpUrl)) });
  app.post("/mcp", express.json(), bearer, async (req, res) => {
    const user = String(req.auth?.extra?.user);
    const body = req.body as { method?: string; params?: { name?: string } } | undefined;
    if (opts.stepUpTool && body?.method === "tools/call" && body.params?.name === "admin_action" && !req.auth?.scopes.includes("admin")) {
      state.stepUpChallenges++;
      res.setHeader("WWW-Authenticate", `Bearer error="insufficient_scope", scope="profile admin", resource_metadata="${getOAuthProtectedResourceMetadataUrl(new URL(state.mcpUrl))}"`);
      res.status(403).type("json").send(JSON.stringify({ error: "insufficient_scope" }));
      return;
    }
    const mcp = new McpServer({ name: "oauth-upstream", version: "1.0.0" });
    mcp.registerTool("whoami", { description: "Who the upstream thinks you are" }, async (extra) => ({ content: [{ type: "text", text: `upstream user: ${String(extra.authInfo?.extra?.user)}` }] }));
    if (opts.stepUpTool) mcp.registerTool("admin_action", { description: "Needs the admin scope" }, async () => ({ content: [{ type: "text", text: `admin action by ${user}` }] }));
    if (opts.perUserCatalog) registerCatalogOf(mcp, user);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => void transport.close());
    await mcp.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  // A plain HTTP API behind the same tokens (http connectors): who the token belongs to.
  app.get("/api/me", bearerOnly(provider), (req, res) => {
    res.status(200).type("json").send(JSON.stringify({ user: req.auth?.extra?.user }));
  });
  // Step-up for http connectors: writing needs the "write" scope (403 insufficient_scope naming it; /api/drafts names none); a plain 403 is no step-up.
  for (const path of ["/api/notes", "/api/drafts"]) app.post(path, bearerOnly(provider), (req, res) => {
    if (!req.auth?.scopes.includes("write")) {
      state.stepUpChallenges++;
      res.setHeader("WWW-Authenticate", path === "/api/drafts" ? `Bearer error="insufficient_scope"` : `Bearer error="insufficient_scope", scope="write"`);
      res.status(403).type("json").send(JSON.stringify({ error: "insufficient_scope" }));
      return;
    }
    res.status(201).type("json").send(JSON.stringify({ written: true, by: req.auth?.extra?.user }));
  });
  app.get("/api/forbidden", bearerOnly(provider), (_req, res) => {
    res.setHeader("WWW-Authenticate", `Bearer error="invalid_request"`);
    res.status(403).type("json").send(JSON.stringify({ error: "not yours" }));
  });
  // client_credentials (machine to machine): Basic client authentication, a token for the machine.
  app.post("/cc/token", express.urlencoded({ extended: false }), (req, res) => {
    const basic = Buffer.from(String(req.headers.authorization ?? "").replace(/^Basic /, ""), "base64").toString();
    const body = req.body as Record<string, string>;
    if (basic !== `${CC_CLIENT.id}:${CC_CLIENT.secret}` || body.grant_type !== "client_credentials") {
      res.status(401).type("json").send(JSON.stringify({ error: "invalid_client" }));
      return;
    }
    state.ccRequests.push({ ...body });
    res.status(200).type("json").send(JSON.stringify(issue({ user: `machine:${CC_CLIENT.id}`, clientId: CC_CLIENT.id, scopes: (body.scope ?? "").split(" ").filter(Boolean), revoked: false })));
  });
  state.revokeUser = (user) => {
    for (const grant of [...refresh.values(), ...[...access.values()].map((a) => a.grant)]) if (grant.user === user) grant.revoked = true;
  };
  state.close = () => new Promise((resolve) => server.close(() => resolve()));
  return state;
}

/** What a person's browser does at the upstream's sign-in page: signs in as `user`; answers the redirect back to us. */
export async function signInUpstream(authorizationUrl: string, user: string): Promise<URL> {
  const page = await fetch(authorizationUrl, { redirect: "manual" });
  const html = await page.text();
  if (page.status !== 200) throw new Error(`the upstream's authorization page answered ${page.status}: ${html.slice(0, 300)}`);
  const fields = Object.fromEntries([...html.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], m[2].replace(/&quot;/g, '"')]));
  const res = await fetch(new URL("/login", authorizationUrl), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ ...fields, username: user }), redirect: "manual" });
  return new URL(res.headers.get("location")!);
}

/** What `user` alone sees upstream: a resource, a resource template and a prompt named after them. */
function registerCatalogOf(mcp: McpServer, user: string): void {
  mcp.registerResource(`${user}-notes`, `notes://${user}/today`, { mimeType: "text/plain" }, async (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: `today's notes of ${user}` }] }));
  mcp.registerResource(`${user}-days`, new ResourceTemplate(`notes://${user}/days/{day}`, { list: undefined }), { mimeType: "text/plain" }, async (uri, vars) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: `notes of ${user} on ${String(vars.day)}` }] }));
  mcp.registerPrompt(`${user}_greeting`, { description: `Greets ${user}` }, async () => ({ messages: [{ role: "user", content: { type: "text", text: `hello ${user}` } }] }));
}

/** The client_credentials client the upstream knows. */
export const CC_CLIENT = { id: "machine-client", secret: "machine-secret-value" };

/** Bearer check without a resource-metadata challenge: what a plain API answers. */
function bearerOnly(provider: OAuthServerProvider) {
  return requireBearerAuth({ verifier: provider });
}
