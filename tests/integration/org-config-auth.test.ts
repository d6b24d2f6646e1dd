import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { openClientSecret } from "@/lib/connectors/upstream-auth/auth-settings";
import { api } from "@/tests/helpers/api";
import { createTenant, type Tenant } from "@/tests/helpers/factories";

/**
 * Issue 28 point 3 (configuration as code carries what the connector API answers): a
 * connector's `auth` — its client secret as a `${secret:NAME}` reference, write-only like secret
 * headers — and an mcp connector's `toolApproval` go through export, plan and apply.
 */

const CLIENT_SECRET = "cs-9f2c41d7e08b";
const OTHER_SECRET = "cs-other-5a1e";
const json = { headers: { accept: "application/json" } };

/** An http connector authenticating with client_credentials, and an mcp connector on OAuth (no discovery at creation) without tool approval. */
async function orgWithAuth(): Promise<Tenant> {
  const t = await createTenant();
  const a = api(t.owner.token);
  const crm = await a.post(`/api/v1/orgs/${t.org.id}/connectors`, {
    type: "http",
    name: "CRM",
    config: { baseUrl: "https://crm.example.com" },
    auth: { type: "client_credentials", tokenUrl: "https://auth.example.com/token", clientId: "crm-client", clientSecret: CLIENT_SECRET, scopes: ["read"] },
    tools: [{ name: "get_customer", request: { method: "GET", path: "/customers/{id}" } }],
  });
  expect(crm.status, crm.text).toBe(201);
  const docs = await a.post(`/api/v1/orgs/${t.org.id}/connectors`, { type: "mcp", name: "Docs", config: { url: "https://docs.example.com/mcp", toolApproval: false }, auth: { type: "oauth", connection: "per_user" } });
  expect(docs.status, docs.text).toBe(201);
  return t;
}

const connectorOf = (doc: { connectors: Array<{ slug: string }> }, slug: string) => doc.connectors.find((c) => c.slug === slug) as Record<string, unknown>;

describe("configuration as code: a connector's auth and an mcp connector's toolApproval", () => {
  it("the export carries them as the API answers them, the client secret as a reference, and plans nothing against its own organization", async () => {
    const t = await orgWithAuth();
    const exported = await api(t.owner.token).get(`/api/v1/orgs/${t.org.id}/config`, json);
    expect(exported.status).toBe(200);
    expect(exported.text).not.toContain(CLIENT_SECRET);
    expect(connectorOf(exported.body, "crm").auth).toEqual({ type: "client_credentials", tokenUrl: "https://auth.example.com/token", clientId: "crm-client", scopes: ["read"], clientSecret: "${secret:CRM_CLIENT_SECRET}" });
    expect(connectorOf(exported.body, "docs")).toMatchObject({ auth: { type: "oauth", connection: "per_user" }, toolApproval: false });

    const plan = await api(t.owner.token).post(`/api/v1/orgs/${t.org.id}/config/plan`, exported.body);
    expect(plan.status, plan.text).toBe(200);
    expect(plan.body.changes).toEqual([]);
  });

  it("apply writes them into another organization: the secret from its reference, sealed; a change shows in the plan and is applied", async () => {
    const source = await orgWithAuth();
    const doc = (await api(source.owner.token).get(`/api/v1/orgs/${source.org.id}/config`, json)).body;
    const t = await createTenant();
    const a = api(t.owner.token);

    // The reference is not set in this organization: nothing is written, the path is named.
    const refused = await a.post(`/api/v1/orgs/${t.org.id}/config/apply`, doc);
    expect(refused.status).toBe(422);
    expect(refused.text).toContain("connectors.0.auth.clientSecret");
    expect((await a.get(`/api/v1/orgs/${t.org.id}/connectors`)).body.items).toEqual([]);

    expect((await a.put(`/api/v1/orgs/${t.org.id}/secrets/CRM_CLIENT_SECRET`, { value: OTHER_SECRET })).status).toBe(204);
    const applied = await a.post(`/api/v1/orgs/${t.org.id}/config/apply`, doc);
    expect(applied.status, applied.text).toBe(200);
    expect(applied.text).not.toContain(OTHER_SECRET);
    const items = (await a.get(`/api/v1/orgs/${t.org.id}/connectors`)).body.items as Array<Record<string, any>>;
    const crm = items.find((c) => c.slug === "crm")!;
    const docs = items.find((c) => c.slug === "docs")!;
    expect(crm.auth).toEqual({ type: "client_credentials", tokenUrl: "https://auth.example.com/token", clientId: "crm-client", scopes: ["read"], hasClientSecret: true });
    expect(docs.auth).toEqual({ type: "oauth", connection: "per_user" });
    expect(docs.config.toolApproval).toBe(false);
    const row = await db().connector.findFirstOrThrow({ where: { orgId: t.org.id, slug: "crm" }, select: { authSecret: true } });
    expect(openClientSecret(row.authSecret)).toBe(OTHER_SECRET);

    // Tool approval on, other scopes: the plan names the fields, the apply writes them, again plans nothing.
    const changed = { ...doc, connectors: doc.connectors.map((c: Record<string, any>) => (c.slug === "docs" ? { ...c, toolApproval: true } : { ...c, auth: { ...c.auth, scopes: ["read", "write"] } })) };
    const plan = await a.post(`/api/v1/orgs/${t.org.id}/config/plan`, changed);
    expect(plan.body.changes).toEqual([
      { action: "update", kind: "connector", name: "crm", fields: [{ path: "auth.scopes", from: ["read"], to: ["read", "write"] }] },
      { action: "update", kind: "connector", name: "docs", fields: [{ path: "toolApproval", from: false, to: true }] },
    ]);
    expect((await a.post(`/api/v1/orgs/${t.org.id}/config/apply`, changed)).status).toBe(200);
    const after = (await a.get(`/api/v1/orgs/${t.org.id}/connectors`)).body.items as Array<Record<string, any>>;
    expect(after.find((c) => c.slug === "crm")!.auth).toMatchObject({ scopes: ["read", "write"], hasClientSecret: true });
    expect(after.find((c) => c.slug === "docs")!.config.toolApproval).toBe(true);
    expect((await a.post(`/api/v1/orgs/${t.org.id}/config/plan`, changed)).body.changes).toEqual([]);
  });

  it("a client secret written in the document itself is refused (422): only references", async () => {
    const t = await createTenant();
    const doc = { version: 1, connectors: [{ slug: "crm", type: "http", name: "CRM", baseUrl: "https://crm.example.com", auth: { type: "client_credentials", tokenUrl: "https://auth.example.com/token", clientId: "c", clientSecret: CLIENT_SECRET } }] };
    const plan = await api(t.owner.token).post(`/api/v1/orgs/${t.org.id}/config/plan`, doc);
    expect(plan.status).toBe(422);
    expect(plan.text).toContain("connectors.0.auth.clientSecret");
    expect(plan.text).not.toContain(CLIENT_SECRET);
  });
});
