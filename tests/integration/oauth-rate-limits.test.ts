import http from "node:http";
import type net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RouteServer } from "@/tests/helpers/route-server";
import { authorizeUrl, pkce, REDIRECT, redirectOf, startOauthSite, stopOauthSite, type OauthSite } from "@/tests/helpers/oauth-flow";

/**
 * Issue 21: the OAuth endpoints' budgets are per client address — the socket's, or the one a
 * proxy listed in TRUSTED_PROXIES vouches for — on the project's own limiter; better-auth's
 * limiter (one shared bucket per path, believing any X-Forwarded-For) is off. Unauthenticated
 * client creation (dynamic registration, Client ID Metadata Documents) has a budget of its own.
 */

// A budget of 3 new clients per address: small, so a test can spend it (default 30 per hour).
process.env.OAUTH_NEW_CLIENTS_PER_IP = "3";
// Documents on loopback http (test-only: production refuses them) for the CIMD case.
process.env.OAUTH_CIMD_ALLOW_LOOPBACK = "true";

let app: RouteServer;
let site: OauthSite;
let docs: http.Server;
let docsOrigin: string;

beforeAll(async () => {
  ({ app, site } = await startOauthSite());
  docs = http.createServer((req, res) => {
    const clientId = `${docsOrigin}${req.url}`;
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ client_id: clientId, client_name: "Doc app", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" }));
  });
  await new Promise<void>((resolve) => docs.listen(0, "127.0.0.1", resolve));
  docsOrigin = `http://127.0.0.1:${(docs.address() as net.AddressInfo).port}`;
});
afterAll(async () => {
  delete process.env.TRUSTED_PROXIES;
  delete process.env.OAUTH_CIMD_ALLOW_LOOPBACK;
  docs?.closeAllConnections();
  await new Promise((resolve) => (docs ? docs.close(resolve) : resolve(null)));
  await stopOauthSite(app);
});

const clientBody = { redirect_uris: [REDIRECT], token_endpoint_auth_method: "none", client_name: "Flood", grant_types: ["authorization_code"] };
const registerFrom = (forwardedFor: string) => fetch(site.metadata.registration_endpoint, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": forwardedFor }, body: JSON.stringify(clientBody) });

describe("per-address budgets of the OAuth endpoints", () => {
  it("registrations from one address stop at its budget, whatever X-Forwarded-For it writes (no trusted proxy)", async () => {
    delete process.env.TRUSTED_PROXIES;
    const statuses = [];
    for (const spoofed of ["203.0.113.1", "203.0.113.2", "203.0.113.3", "203.0.113.4"]) statuses.push((await registerFrom(spoofed)).status);
    expect(statuses).toEqual([201, 201, 201, 429]);
    const refused = await registerFrom("203.0.113.5");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ error: "too_many_requests" });
  });

  it("behind a trusted proxy each client address has its own budget: several addresses go on, one stops", async () => {
    // TRUSTED_PROXIES: the test's requests come from 127.0.0.1, here playing the proxy (a default install trusts none).
    process.env.TRUSTED_PROXIES = "127.0.0.1";
    try {
      // The socket (127.0.0.1, whose own budget the test above spent) is the proxy: the address it vouches for counts.
      const one = [];
      for (let i = 0; i < 4; i++) one.push((await registerFrom("198.51.100.7")).status);
      expect(one).toEqual([201, 201, 201, 429]);
      const several = await Promise.all(["198.51.100.8", "198.51.100.9", "2001:db8::1"].map(async (ip) => (await registerFrom(ip)).status));
      expect(several).toEqual([201, 201, 201]);
      // A client of the proxy that writes its own X-Forwarded-For is still the address the proxy saw (the rightmost).
      expect((await registerFrom("10.9.9.9, 198.51.100.7")).status).toBe(429);
    } finally {
      delete process.env.TRUSTED_PROXIES;
    }
  });

  it("a Client ID Metadata Document client is a new client too: past the address's budget, /authorize knows no such client", async () => {
    // TRUSTED_PROXIES: 127.0.0.1 plays the proxy, so each test address gets a budget of its own (a default install trusts none).
    process.env.TRUSTED_PROXIES = "127.0.0.1";
    try {
      const authorizeAs = async (n: number) => {
        const url = authorizeUrl(site, { client_id: `${docsOrigin}/app-${n}.json`, code_challenge: pkce().challenge, resource: `${app.origin}/mcp` });
        const res = await fetch(url, { headers: { "x-forwarded-for": "192.0.2.44" }, redirect: "manual" });
        return redirectOf(site, res);
      };
      for (let n = 0; n < 3; n++) expect((await authorizeAs(n)).pathname).not.toContain("/error");
      const fourth = await authorizeAs(3);
      expect(fourth.pathname).toContain("/error");
      expect(fourth.searchParams.get("error")).toBe("invalid_client");
    } finally {
      delete process.env.TRUSTED_PROXIES;
    }
  });
});

it("better-auth's own limiter is off: it never answers, so no shared bucket is spent by others", async () => {
  const { authorizationServer } = await import("@/lib/oauth/authorization-server");
  expect((await authorizationServer(site.origin).$context).rateLimit.enabled).toBe(false);
});
