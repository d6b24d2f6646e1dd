import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionCookieName } from "@/lib/auth/session-token";
import { createSessionToken } from "@/lib/auth/sessions";
import { api } from "@/tests/helpers/api";
import { createTenant, type Tenant } from "@/tests/helpers/factories";
import { uploadForm, useTempFilesDir } from "@/tests/helpers/files";
import { startMcpUpstream, type Upstream } from "@/tests/helpers/mcp-upstream";

/**
 * Issue 10, point 6: a signed-in browser's cookie goes with every request it sends, whichever
 * site's page asks for it. Writes authenticated by that cookie are refused (403 problem+json)
 * unless the browser says the page was our own; API keys are never sent by a browser on its own
 * and are not affected. (api() sends to http://localhost:3000.)
 */

let t: Tenant;
let cookie: string;
let connectorId: string;
let upstream: Upstream;
beforeAll(async () => {
  upstream = await startMcpUpstream({ tools: [{ name: "search" }] });
  useTempFilesDir();
  t = await createTenant();
  const token = await createSessionToken({ id: t.admin.user.id, email: t.admin.user.email, name: null });
  cookie = `${sessionCookieName()}=${token}`;
  const connector = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { name: "Docs", type: "mcp", config: { url: upstream.url } });
  expect(connector.status).toBe(201);
  connectorId = connector.body.id;
});
afterAll(() => upstream?.close());

const EVIL = { origin: "http://evil.example" };
const upload = (token: string | null, headers: Record<string, string>) =>
  api(token).post(`/api/v1/workspaces/${t.workspace.id}/files`, undefined, { raw: uploadForm({ bytes: "a,b\n1,2\n", name: "x.csv" }), headers });
const reload = (token: string | null, headers: Record<string, string>) => api(token).post(`/api/v1/connectors/${connectorId}/reload`, undefined, { headers });

describe("cookie-authenticated writes from another site", () => {
  it("a multipart upload and a connector reload with Origin: http://evil.example get 403 problem+json", async () => {
    for (const res of [await upload(null, { cookie, ...EVIL }), await reload(null, { cookie, ...EVIL })]) {
      expect(res.status).toBe(403);
      expect(res.headers.get("content-type")).toContain("application/problem+json");
      expect(res.body.detail).toMatch(/API key/);
    }
    const files = await api(t.admin.token).get(`/api/v1/workspaces/${t.workspace.id}/files`);
    expect(files.body.items).toEqual([]);
  });

  it("Sec-Fetch-Site other than same-origin is refused, whatever Origin says", async () => {
    for (const site of ["cross-site", "same-site", "none"]) {
      expect((await reload(null, { cookie, "sec-fetch-site": site, origin: "http://localhost:3000" })).status).toBe(403);
    }
    expect((await reload(null, { cookie, origin: "null" })).status).toBe(403);
  });

  it("the same writes from this platform's own pages work", async () => {
    expect((await upload(null, { cookie, origin: "http://localhost:3000" })).status).toBe(201);
    expect((await upload(null, { cookie, "sec-fetch-site": "same-origin", origin: "http://localhost:3000" })).status).toBe(201);
    expect((await reload(null, { cookie, "sec-fetch-site": "same-origin" })).status).toBe(200);
  });

  it("reads with the cookie and writes with an API key are not affected by Origin", async () => {
    expect((await api(null).get(`/api/v1/connectors/${connectorId}`, { headers: { cookie, ...EVIL } })).status).toBe(200);
    expect((await upload(t.admin.token, EVIL)).status).toBe(201);
    expect((await reload(t.admin.token, { ...EVIL, "sec-fetch-site": "cross-site" })).status).toBe(200);
  });
});
