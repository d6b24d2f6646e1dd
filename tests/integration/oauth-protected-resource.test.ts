import http from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { proxy } from "@/proxy";
import { api } from "@/tests/helpers/api";
import { createTenant, type Tenant } from "@/tests/helpers/factories";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";

/**
 * Issue 13, point 1: an OAuth MCP client that meets a 401 finds, from the challenge alone, the
 * RFC 9728 metadata of the endpoint it called, and every `/.well-known/` answer is JSON a
 * browser page may read — never the sign-in page.
 */

let app: RouteServer;
let t: Tenant;
let other: Tenant;
let serverId: string;
let otherServerId: string;

async function createServer(tenant: Tenant): Promise<string> {
  const res = await api(tenant.admin.token).post(`/api/v1/workspaces/${tenant.workspace.id}/servers`, { name: "S", connectorIds: [] });
  expect(res.status).toBe(201);
  return res.body.id;
}

beforeAll(async () => {
  app = await startRouteServer();
  [t, other] = await Promise.all([createTenant(), createTenant()]);
  [serverId, otherServerId] = await Promise.all([createServer(t), createServer(other)]);
});
afterAll(() => app.close());
afterEach(() => {
  delete process.env.PUBLIC_URL;
  delete process.env.MCP_ALLOWED_HOSTS;
});

/** A GET with exactly this Host header (fetch cannot set one). */
function getWithHost(path: string, host: string, extra: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port: Number(new URL(app.origin).port), path, headers: { host, ...extra } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) }));
    });
    req.on("error", reject);
    req.end();
  });
}

const INIT = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } });

function callMcp(path: string, token?: string): Promise<Response> {
  return fetch(`${app.origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: INIT,
  });
}

/** The parameters of a `Bearer k="v", …` challenge. */
function challengeParams(header: string | null): Record<string, string> {
  expect(header).toMatch(/^Bearer /);
  return Object.fromEntries([...header!.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
}

describe("the 401 challenge leads to the endpoint's metadata", () => {
  for (const [label, path] of [["/mcp/<serverId>", () => `/mcp/${serverId}`], ["/mcp", () => "/mcp"]] as const) {
    it(`${label}: without a key and with a bad one, resource_metadata names a document whose resource is this endpoint`, async () => {
      for (const token of [undefined, "sb_not_a_real_key"]) {
        const res = await callMcp(path(), token);
        expect(res.status).toBe(401);
        const params = challengeParams(res.headers.get("www-authenticate"));
        expect(params.scope).toBe("mcp offline_access");
        expect(params.error).toBe(token ? "invalid_token" : undefined);
        expect(params.resource_metadata).toBe(`${app.origin}/.well-known/oauth-protected-resource${path()}`);
        const doc = await fetch(params.resource_metadata);
        expect(doc.status).toBe(200);
        expect(doc.headers.get("content-type")).toContain("application/json");
        const metadata = await doc.json();
        expect(metadata.resource).toBe(`${app.origin}${path()}`);
        expect(metadata.authorization_servers).toEqual([app.origin]);
        expect(metadata.scopes_supported).toEqual(params.scope.split(" "));
        expect(metadata.bearer_methods_supported).toEqual(["header"]);
      }
    });
  }

  it("with PUBLIC_URL set, the challenge and the documents use the public URL, not the address the request came to", async () => {
    // The setting under test: a public URL other than the address the request came to.
    process.env.PUBLIC_URL = "https://mcp.example.com";
    const res = await callMcp(`/mcp/${serverId}`);
    const params = challengeParams(res.headers.get("www-authenticate"));
    expect(params.resource_metadata).toBe(`https://mcp.example.com/.well-known/oauth-protected-resource/mcp/${serverId}`);
    const metadata = await (await fetch(`${app.origin}/.well-known/oauth-protected-resource/mcp/${serverId}`)).json();
    expect(metadata.resource).toBe(`https://mcp.example.com/mcp/${serverId}`);
    expect(metadata.authorization_servers).toEqual(["https://mcp.example.com"]);
    expect((await (await fetch(`${app.origin}/.well-known/oauth-protected-resource`)).json()).resource).toBe("https://mcp.example.com");
  });
});

describe("protected-resource metadata documents", () => {
  it("name the host the client used (not the server's listening address), and nothing for a host that is not this platform", async () => {
    const path = `/.well-known/oauth-protected-resource/mcp/${serverId}`;
    const local = await getWithHost(path, "localhost:4321");
    expect(local.body.resource).toBe(`http://localhost:4321/mcp/${serverId}`);
    const proxied = await getWithHost(path, "localhost:4321", { "x-forwarded-proto": "https" });
    expect(proxied.body.authorization_servers).toEqual(["https://localhost:4321"]);
    const madeUp = await getWithHost(path, "evil.example");
    expect(madeUp.status).toBe(404);
    expect(JSON.stringify(madeUp.body)).not.toContain("evil.example");
    // A deployment's own host name allowed (a default install allows the localhost names).
    process.env.MCP_ALLOWED_HOSTS = "mcp.corp.example";
    expect((await getWithHost(path, "mcp.corp.example")).body.resource).toBe(`http://mcp.corp.example/mcp/${serverId}`);
  });

  it("the root document describes the whole instance", async () => {
    const res = await fetch(`${app.origin}/.well-known/oauth-protected-resource`);
    expect(res.status).toBe(200);
    const metadata = await res.json();
    expect(metadata.resource).toBe(app.origin);
    expect(metadata.authorization_servers).toEqual([app.origin]);
  });

  it("says nothing about whether a server exists: another tenant's and a made-up id get the same document as one's own", async () => {
    const documentFor = async (id: string) => {
      const res = await fetch(`${app.origin}/.well-known/oauth-protected-resource/mcp/${id}`);
      expect(res.status).toBe(200);
      return JSON.stringify(await res.json()).replaceAll(id, "<id>");
    };
    const own = await documentFor(serverId);
    expect(await documentFor(otherServerId)).toBe(own);
    expect(await documentFor("cnotaserver000000000000000")).toBe(own);
  });

  it("an id in the path is percent-encoded in the resource exactly as the endpoint URL is", async () => {
    const metadata = await (await fetch(`${app.origin}/.well-known/oauth-protected-resource/mcp/a%20b`)).json();
    expect(metadata.resource).toBe(`${app.origin}/mcp/a%20b`);
  });
});

describe("/.well-known/ is JSON with CORS, or a JSON 404", () => {
  it("the documents and the 404s can be read from any origin, and the preflight is allowed", async () => {
    for (const path of ["/.well-known/oauth-protected-resource", `/.well-known/oauth-protected-resource/mcp/${serverId}`, "/.well-known/oauth-authorization-server"]) {
      const res = await fetch(`${app.origin}${path}`, { headers: { origin: "https://inspector.example" } });
      expect(res.headers.get("access-control-allow-origin"), path).toBe("*");
    }
    const preflight = await fetch(`${app.origin}/.well-known/oauth-protected-resource/mcp/${serverId}`, {
      method: "OPTIONS",
      headers: { origin: "https://inspector.example", "access-control-request-method": "GET", "access-control-request-headers": "mcp-protocol-version" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-methods")).toContain("GET");
    expect(preflight.headers.get("access-control-allow-headers")).toContain("mcp-protocol-version");
  });

  it("unknown documents are 404 JSON (the authorization server's own are in oauth-authorization-server.test.ts)", async () => {
    for (const path of [
      "/.well-known/oauth-authorization-server/mcp",
      "/.well-known/anything-else",
      "/.well-known/oauth-protected-resource/mcp/demo", // the demo endpoint takes no credentials
      "/.well-known/oauth-protected-resource/api/v1",
      `/.well-known/oauth-protected-resource/mcp/${serverId}/extra`,
    ]) {
      const res = await fetch(`${app.origin}${path}`);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type"), path).toContain("application/json");
      expect((await res.json()).error, path).toBe("not_found");
    }
  });

  it("the page gate lets /.well-known/ through without a session instead of redirecting to sign in", async () => {
    for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp/x", "/.well-known/openid-configuration"]) {
      const response = await proxy(new NextRequest(`http://127.0.0.1:3000${path}`));
      expect(response.status, path).toBe(200);
      expect(response.headers.get("location"), path).toBeNull();
      expect(response.headers.get("x-middleware-next"), path).toBe("1");
    }
    // An admin page still needs a session: the gate itself is unchanged.
    expect((await proxy(new NextRequest("http://127.0.0.1:3000/connectors"))).status).toBe(307);
  });
});
