import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createHttpConnector, createMcpServer, createTenant, type Tenant } from "@/tests/helpers/factories";
import { postRaw } from "@/tests/helpers/mcp-clients";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";

/**
 * Issue 12 point 7, "Browser clients and wire details": CORS for the origins an operator lists
 * (MCP_CORS_ORIGINS), no JSON-RPC batches on 2025-06-18 and later, and a 400 for an
 * unsupported MCP-Protocol-Version that names the versions actually served.
 */

let app: RouteServer;
let t: Tenant;
let url: string;
beforeAll(async () => {
  app = await startRouteServer();
  t = await createTenant();
  url = `${app.origin}/mcp/${await createMcpServer(t, [await createHttpConnector(t, "CRM", ["get_customer"])])}`;
});
afterAll(() => app.close());
afterEach(() => {
  delete process.env.MCP_CORS_ORIGINS;
});

const INSPECTOR = "https://inspector.example";
const INIT = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } };
const LIST = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };
const bearer = () => ({ authorization: `Bearer ${t.admin.token}` });

function preflight(origin: string) {
  return fetch(url, { method: "OPTIONS", headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type, mcp-protocol-version" } });
}

describe("CORS on /mcp/* for the origins in MCP_CORS_ORIGINS", () => {
  it("a listed origin's preflight is answered with the methods and headers a client sends", async () => {
    // The setting under test: an origin allowed to call from a browser (a default install allows none).
    process.env.MCP_CORS_ORIGINS = `${INSPECTOR}, https://other.example`;
    const res = await preflight(INSPECTOR);
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe(INSPECTOR);
    expect(res.headers.get("access-control-allow-methods")).toContain("POST");
    for (const header of ["authorization", "content-type", "mcp-session-id", "mcp-protocol-version"]) {
      expect(res.headers.get("access-control-allow-headers")).toContain(header);
    }
  });

  it("a page of a listed origin reads the answer, its session id, protocol version and the 401 challenge", async () => {
    // The setting under test: an origin allowed to call from a browser (a default install allows none).
    process.env.MCP_CORS_ORIGINS = INSPECTOR;
    const ok = await postRaw(url, INIT, { ...bearer(), origin: INSPECTOR });
    expect(ok.status).toBe(200);
    expect(ok.body.result.serverInfo.name).toBe("Support");
    expect(ok.headers.get("access-control-allow-origin")).toBe(INSPECTOR);
    const exposed = ok.headers.get("access-control-expose-headers") ?? "";
    for (const header of ["mcp-session-id", "mcp-protocol-version", "www-authenticate"]) expect(exposed).toContain(header);
    const unauthorized = await postRaw(url, INIT, { origin: INSPECTOR });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("access-control-allow-origin")).toBe(INSPECTOR);
  });

  it("any other origin is refused, preflight and request alike, and gets no CORS headers", async () => {
    // The setting under test: an origin allowed to call from a browser (a default install allows none).
    process.env.MCP_CORS_ORIGINS = INSPECTOR;
    const res = await preflight("https://evil.example");
    expect(res.status).toBe(403);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    const post = await postRaw(url, INIT, { ...bearer(), origin: "https://evil.example" });
    expect(post.status).toBe(403);
    expect(post.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("without the setting no cross-origin page is served, as before", async () => {
    expect((await preflight(INSPECTOR)).status).toBe(403);
    expect((await postRaw(url, INIT, { ...bearer(), origin: INSPECTOR })).status).toBe(403);
  });
});

describe("JSON-RPC batches", () => {
  it("are refused with 400 on 2025-06-18 and later, whether the header or the batch's initialize names the version", async () => {
    for (const version of ["2025-06-18", "2025-11-25"]) {
      const res = await postRaw(url, [LIST, { ...LIST, id: 3 }], { ...bearer(), "mcp-protocol-version": version });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe(-32600);
      expect(res.body.error.message).toContain(version);
    }
    const initializing = await postRaw(url, [INIT], bearer());
    expect(initializing.status).toBe(400);
  });

  it("are still served on 2025-03-26, which had them", async () => {
    const res = await fetch(url, {
      method: "POST",
      headers: { ...bearer(), "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-03-26" },
      body: JSON.stringify([LIST, { ...LIST, id: 3 }]),
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("get_customer");
  });
});

describe("an unsupported MCP-Protocol-Version", () => {
  it("is a 400 that lists the versions served: 2026-07-28 and the 2025 revisions, not the 2024-10-07 draft", async () => {
    for (const version of ["2024-10-07", "1999-01-01"]) {
      const res = await postRaw(url, LIST, { ...bearer(), "mcp-protocol-version": version });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(version);
      expect(res.body.error.data.supported).toEqual(expect.arrayContaining(["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"]));
      expect(res.body.error.data.supported).not.toContain("2024-10-07");
      expect(res.body.error.data.requested).toBe(version);
      expect(res.body.id).toBe(2); // the request's own id, not null
    }
  });

  it("on a 2026-07-28 request is that revision's UnsupportedProtocolVersionError: server/discover's versions, the requested one echoed, the request's id", async () => {
    const meta = { "io.modelcontextprotocol/protocolVersion": "v999.0.0", "io.modelcontextprotocol/clientCapabilities": {} };
    const res = await postRaw(url, { jsonrpc: "2.0", id: 301, method: "server/discover", params: { _meta: meta } }, { ...bearer(), "mcp-protocol-version": "v999.0.0", "mcp-method": "server/discover" });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ id: 301, error: { code: -32022, data: { requested: "v999.0.0" } } });
    const modern = { ...meta, "io.modelcontextprotocol/protocolVersion": "2026-07-28" };
    const discover = await postRaw(url, { jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: modern } }, { ...bearer(), "mcp-protocol-version": "2026-07-28", "mcp-method": "server/discover" });
    expect(res.body.error.data.supported).toEqual(discover.body.result.supportedVersions);
  });

  it("an answer for a server the caller cannot see carries the request's id", async () => {
    const res = await postRaw(`${app.origin}/mcp/00000000-0000-4000-8000-000000000000`, INIT, bearer());
    expect(res.status).toBe(404);
    expect(res.body.id).toBe(1);
  });

  it("initialize never settles on the 2024-10-07 draft", async () => {
    const res = await postRaw(url, { ...INIT, params: { ...INIT.params, protocolVersion: "2024-10-07" } }, bearer());
    expect(res.status).toBe(200);
    expect(res.body.result.protocolVersion).not.toBe("2024-10-07");
  });
});
