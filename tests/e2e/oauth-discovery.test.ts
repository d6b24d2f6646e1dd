import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ensureBuild, type RunningApp, startApp } from "@/tests/e2e/support/next-app";

/**
 * Issue 13, point 1 against the production server (`next build` + `next start`): Next.js serves
 * the dot folder app/.well-known, and the page gate (proxy.ts) lets it through as JSON instead
 * of the sign-in redirect OAuth MCP clients used to get (`Unexpected token '<'`).
 */

let app: RunningApp;

beforeAll(async () => {
  await ensureBuild();
  app = await startApp({ databaseUrl: inject("databaseUrl") });
}, 600_000);

afterAll(async () => {
  await app?.stop();
});

describe("OAuth discovery from a 401", () => {
  it("the 401 of /mcp/<id> names a metadata document the server really serves, as JSON readable from any origin", async () => {
    const res = await fetch(`${app.baseUrl}/mcp/some-server`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } }),
    });
    expect(res.status).toBe(401);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(res.headers.get("www-authenticate") ?? "")?.[1];
    expect(metadataUrl).toBe(`${app.baseUrl}/.well-known/oauth-protected-resource/mcp/some-server`);
    const doc = await fetch(metadataUrl!, { redirect: "manual", headers: { origin: "https://claude.example" } });
    expect(doc.status).toBe(200);
    expect(doc.headers.get("access-control-allow-origin")).toBe("*");
    expect(await doc.json()).toMatchObject({ resource: `${app.baseUrl}/mcp/some-server`, authorization_servers: [app.baseUrl], scopes_supported: ["mcp", "offline_access"] });
  });

  it("the root and /mcp documents are served, and (on by default) the authorization server's; others are a JSON 404, never the sign-in page", async () => {
    for (const [path, resource] of [["/.well-known/oauth-protected-resource", app.baseUrl], ["/.well-known/oauth-protected-resource/mcp", `${app.baseUrl}/mcp`]]) {
      const res = await fetch(`${app.baseUrl}${path}`, { redirect: "manual" });
      expect(res.status, path).toBe(200);
      expect((await res.json()).resource, path).toBe(resource);
    }
    const server = await fetch(`${app.baseUrl}/.well-known/oauth-authorization-server`, { redirect: "manual" });
    expect(server.status).toBe(200);
    expect(await server.json()).toMatchObject({ issuer: app.baseUrl, client_id_metadata_document_supported: true });
    for (const path of ["/.well-known/openid-configuration", "/.well-known/oauth-authorization-server/mcp/x"]) {
      const res = await fetch(`${app.baseUrl}${path}`, { redirect: "manual" });
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type"), path).toContain("application/json");
      expect(await res.json(), path).toMatchObject({ error: "not_found" });
    }
    const preflight = await fetch(`${app.baseUrl}/.well-known/oauth-protected-resource/mcp/x`, {
      method: "OPTIONS",
      headers: { origin: "https://claude.example", "access-control-request-method": "GET" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
  });
});
