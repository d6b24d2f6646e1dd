import { expect } from "vitest";
import { callerFromBearer } from "@/lib/auth/resolve-bearer";
import { db } from "@/lib/db/client";
import { composeInstructions } from "@/lib/mcp/visibility/filter-view";
import { dropCachedSnapshot } from "@/lib/mcp/visibility/load-snapshot";
import { resolveCallerView } from "@/lib/mcp/visibility/resolve-view";
import { buildResourceCatalog } from "@/lib/resources/resource-catalog";
import { api } from "@/tests/helpers/api";
import { createTenant, type Tenant, uniqueSuffix } from "@/tests/helpers/factories";

/**
 * Real rows made through the admin API, then the exact computation /mcp/<serverId> does for
 * one request: resolveCallerView → composeInstructions → buildResourceCatalog.
 */

export const HEADER_SECRET = "sk_header_secret_0123456789";

export interface ToolSpec {
  name: string;
  params?: string[];
}

/** Creates an http connector with tools through the admin API; returns its id. */
export async function createConnector(t: Tenant, name: string, opts: { instructions?: string; tools: ToolSpec[]; headers?: Record<string, string> }): Promise<string> {
  const res = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
    type: "http",
    name,
    instructions: opts.instructions,
    config: { baseUrl: "https://api.example.com", ...(opts.headers ? { headers: opts.headers } : {}) },
    tools: opts.tools.map((tool) => ({
      name: tool.name,
      request: { method: "GET", path: `/${tool.name}` },
      inputSchema: { type: "object", properties: Object.fromEntries((tool.params ?? []).map((p) => [p, { type: "string" }])) },
    })),
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

/** Adds a stored resource through the admin API. */
export async function addStoredResource(t: Tenant, connectorId: string, body: Record<string, unknown>): Promise<void> {
  const res = await api(t.admin.token).post(`/api/v1/connectors/${connectorId}/resources`, { name: String(body.uri), ...body });
  expect(res.status, res.text).toBe(201);
}

/** Puts a row straight into mcp_resources, around the API's validation. */
export async function insertStoredResourceRow(
  connectorId: string,
  row: { uri: string; name?: string; mimeType?: string | null; fetchConfig?: unknown },
): Promise<void> {
  const fetchConfig = row.fetchConfig === undefined ? null : JSON.stringify(row.fetchConfig);
  await db().$executeRaw`
    INSERT INTO mcp_resources (connector_id, uri, name, mime_type, fetch_config)
    VALUES (${connectorId}, ${row.uri}, ${row.name ?? row.uri}, ${row.mimeType ?? null}, ${fetchConfig}::jsonb)`;
}

export async function createServer(t: Tenant, connectorIds: string[], instructions: string | null = "Server notes."): Promise<string> {
  const res = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Support", instructions, connectorIds });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

/** Gives the tenant's plain member an MCP role allowing exactly these tools. */
export async function giveMemberRole(t: Tenant, tools: Array<{ connectorId: string; tool: string }>): Promise<void> {
  const role = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/roles`, { name: `Role ${uniqueSuffix()}`, tools });
  expect(role.status, role.text).toBe(201);
  const res = await api(t.admin.token).patch(`/api/v1/workspaces/${t.workspace.id}/members/${t.member.user.id}`, { mcpRoleId: role.body.id });
  expect(res.status, res.text).toBe(200);
}

export async function addSkill(t: Tenant, name: string, content: string, connectorId: string | null = null): Promise<void> {
  const res = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/skills`, { name, content, connectorId });
  expect(res.status, res.text).toBe(201);
}

export async function setWorkspace(t: Tenant, settings: { knowledgeGraphEnabled?: boolean; toolWhitelistsEnabled?: boolean }): Promise<void> {
  const res = await api(t.admin.token).patch(`/api/v1/workspaces/${t.workspace.id}`, settings);
  expect(res.status, res.text).toBe(200);
}

export async function putGraph(t: Tenant, connectorId: string, graph: { entities: unknown[]; relations: unknown[] }): Promise<void> {
  const res = await api(t.admin.token).put(`/api/v1/connectors/${connectorId}/graph`, graph);
  expect(res.status, res.text).toBe(200);
}

/** What one request to /mcp/<serverId> computes for this bearer token; null: the server does not exist for it. */
export async function catalogFor(token: string, serverId: string) {
  const caller = await callerFromBearer(token);
  expect(caller).not.toBeNull();
  const view = await resolveCallerView(caller!, serverId);
  if (!view) return null;
  const instructions = composeInstructions(view);
  const catalog = buildResourceCatalog(view, instructions);
  return { view, instructions, catalog, uris: catalog.list().map((r) => r.uri) };
}

/** Every byte a caller could get: the list and a read of everything listed. */
export function everythingServed(catalog: NonNullable<Awaited<ReturnType<typeof catalogFor>>>["catalog"]): string {
  return JSON.stringify([catalog.list(), catalog.list().map((r) => catalog.read(r.uri))]);
}

export const uriOf = {
  instructions: (serverId: string) => `anythingmcp://server/${serverId}/instructions`,
  connector: (serverId: string, connectorId: string) => `anythingmcp://server/${serverId}/connector/${connectorId}/instructions`,
  graph: (serverId: string) => `anythingmcp://server/${serverId}/knowledge-graph`,
};

/**
 * The seed's cast: a server with two connectors — CRM (instructions, a scoped skill, a stored
 * resource, secret headers) and Billing — and a member whose role grants no tool of CRM.
 */
export async function crmAndBillingScenario(opts: { knowledgeGraphEnabled?: boolean; memberRole?: boolean } = {}) {
  const t = await createTenant({ knowledgeGraphEnabled: opts.knowledgeGraphEnabled ?? false });
  const crm = await createConnector(t, "CRM", {
    instructions: "CRM setup notes.",
    tools: [{ name: "get_customer", params: ["id"] }, { name: "list_customers" }],
    headers: { Authorization: `Bearer ${HEADER_SECRET}` },
  });
  const billing = await createConnector(t, "Billing", { instructions: "Billing notes.", tools: [{ name: "list_invoices", params: ["customer_id"] }] });
  await addStoredResource(t, crm, { uri: "crm://schema", name: "CRM schema", description: "Tables", mimeType: "text/markdown", fetchConfig: { text: "# CRM schema" } });
  await addStoredResource(t, billing, { uri: "billing://rates", name: "Rates", fetchConfig: { content: "Rates: 1%" } });
  await addSkill(t, "CRM skill", "Search the CRM by email.", crm);
  await addSkill(t, "General", "Answer briefly.");
  const serverId = await createServer(t, [crm, billing]);
  if (opts.memberRole ?? true) await giveMemberRole(t, [{ connectorId: billing, tool: "list_invoices" }]);
  return { t, crm, billing, serverId };
}

/** Raw SQL does not bump the org's config version: forget the cached snapshot explicitly. */
export function forgetSnapshot(serverId: string): void {
  dropCachedSnapshot(serverId);
}
