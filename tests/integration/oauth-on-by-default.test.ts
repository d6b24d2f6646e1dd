import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpConnector, createMcpServer, createTenant } from "@/tests/helpers/factories";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";
import { loadSite, mcpRpc, publicClient, sessionCookieFor, tokensFor } from "@/tests/helpers/oauth-flow";

/**
 * A default install (no OAUTH_ENABLED, no PUBLIC_URL) runs the authorization server: its issuer
 * is the address the client used, when the MCP endpoints accept that Host (the rule a server's
 * `url` follows), so Claude.ai and the other OAuth-only clients are not left out.
 */

let app: RouteServer;

beforeAll(async () => {
  delete process.env.PUBLIC_URL;
  delete process.env.OAUTH_ENABLED;
  delete process.env.MCP_ALLOWED_HOSTS;
  app = await startRouteServer();
});
afterAll(() => app.close());

/** A GET with a Host header of our choosing (fetch does not let one be set). */
function getWithHost(path: string, host: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(app.origin);
  return new Promise((resolve, reject) => {
    http
      .get({ hostname, port, path, headers: { host, ...headers } }, (res) => {
        let body = "";
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode!, body }));
      })
      .on("error", reject);
  });
}

describe("OAuth on by default", () => {
  it("with nothing configured, the metadata names the address the client used, and a full flow reaches the server", async () => {
    const site = await loadSite(app.origin);
    expect(site.metadata.issuer).toBe(app.origin);
    expect(site.metadata.authorization_endpoint).toBe(`${app.origin}/api/oauth/oauth2/authorize`);
    const t = await createTenant();
    const serverId = await createMcpServer(t, [await createHttpConnector(t, "CRM", ["get_customer"])]);
    const client = await publicClient(site);
    const resource = `${app.origin}/mcp/${serverId}`;
    const tokens = await tokensFor(site, { cookie: await sessionCookieFor(t.member.user.id), clientId: client.client_id, resource, choice: { server: [serverId] } });
    const list = await mcpRpc(app.origin, `/mcp/${serverId}`, tokens.access_token, "tools/list");
    expect(list.status).toBe(200);

    // The same token at another accepted address of this instance is another issuer's: refused.
    const port = new URL(app.origin).port;
    const elsewhere = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        { hostname: "127.0.0.1", port, path: `/mcp/${serverId}`, method: "POST", headers: { host: `localhost:${port}`, authorization: `Bearer ${tokens.access_token}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" } },
        (res) => resolve(res.statusCode!),
      );
      req.on("error", reject);
      req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }));
    });
    expect(elsewhere).toBe(401);
  });

  it("a Host the MCP endpoints refuse has no authorization server: JSON 404", async () => {
    const res = await getWithHost("/.well-known/oauth-authorization-server", "evil.example");
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body).error).toBe("not_found");
    const named = JSON.parse((await getWithHost("/.well-known/oauth-authorization-server", `localhost:${new URL(app.origin).port}`)).body);
    expect(named.issuer).toBe(`http://localhost:${new URL(app.origin).port}`);
  });

  it("behind a proxy the scheme follows X-Forwarded-Proto", async () => {
    const port = new URL(app.origin).port;
    const res = await getWithHost("/.well-known/oauth-authorization-server", `localhost:${port}`, { "x-forwarded-proto": "https" });
    expect(JSON.parse(res.body).issuer).toBe(`https://localhost:${port}`);
  });
});
