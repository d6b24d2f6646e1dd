import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "@/tests/helpers/api";
import { createTenant, type Tenant } from "@/tests/helpers/factories";
import { connectV1, connectV2 } from "@/tests/helpers/mcp-clients";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";

/**
 * Issue 14: "OpenAPI import: … keep summary and description apart". An operation's summary
 * becomes the tool's title and its description the tool's description; both reach MCP clients
 * as separate fields (`title`, `description`) on both protocol eras, and the connector API
 * answers and keeps them apart.
 */

const document = JSON.stringify({
  openapi: "3.1.0",
  info: { title: "Billing API", version: "2.0" },
  servers: [{ url: "https://billing.example.com/v2" }],
  paths: {
    "/invoices/{id}": {
      get: {
        operationId: "getInvoice",
        summary: "Get an invoice",
        description: "Returns one invoice by id, with its lines and payments.",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
      },
    },
    "/invoices": { get: { operationId: "listInvoices", description: "Every invoice, newest first." } },
  },
});

let app: RouteServer;
let t: Tenant;
let connectorId: string;
let serverId: string;

beforeAll(async () => {
  app = await startRouteServer();
  t = await createTenant();
  const imported = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors/import-openapi`, { document });
  expect(imported.status, imported.text).toBe(200);
  const tools = imported.body.operations.map((o: { tool: unknown }) => o.tool);
  const connector = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { type: "http", name: "Billing", config: { baseUrl: imported.body.baseUrl }, tools });
  expect(connector.status, connector.text).toBe(201);
  connectorId = connector.body.id;
  const server = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Billing desk", connectorIds: [connectorId] });
  expect(server.status, server.text).toBe(201);
  serverId = server.body.id;
});
afterAll(async () => {
  await app?.close();
});

const getInvoice = { title: "Get an invoice", description: "Returns one invoice by id, with its lines and payments." };

describe("a tool's title and description", () => {
  it("the connector API answers the imported summary as the title and the description apart; a tool without a summary has none", async () => {
    const res = await api(t.admin.token).get(`/api/v1/connectors/${connectorId}`);
    expect(res.status).toBe(200);
    const byName = Object.fromEntries(res.body.tools.map((tool: { name: string }) => [tool.name, tool]));
    expect(byName.getInvoice).toMatchObject(getInvoice);
    expect(byName.listInvoices).toMatchObject({ title: null, description: "Every invoice, newest first." });
  });

  it("tools/list carries them as separate fields on a 2025-era connection", async () => {
    const client = await connectV1(`${app.origin}/mcp/${serverId}`, t.member.token);
    try {
      const { tools } = await client.client.listTools();
      const get = tools.find((tool) => tool.name.endsWith("getInvoice"))!;
      expect(get).toMatchObject(getInvoice);
      const list = tools.find((tool) => tool.name.endsWith("listInvoices"))!;
      expect(list.title).toBeUndefined();
      expect(list.description).toBe("Every invoice, newest first.");
    } finally {
      await client.close();
    }
  });

  it("tools/list carries them as separate fields on a 2026-07-28 connection", async () => {
    const client = await connectV2(`${app.origin}/mcp/${serverId}`, t.member.token);
    try {
      const { tools } = await client.client.listTools();
      expect(tools.find((tool) => tool.name.endsWith("getInvoice"))).toMatchObject(getInvoice);
      expect(tools.find((tool) => tool.name.endsWith("listInvoices"))!.title).toBeUndefined();
    } finally {
      await client.close();
    }
  });

  it("a title set or cleared through the API is what clients list next", async () => {
    const current = await api(t.admin.token).get(`/api/v1/connectors/${connectorId}`);
    const tools = current.body.tools.map((tool: { name: string; title: string | null; description: string; inputSchema: unknown; request: unknown }) => ({
      name: tool.name,
      ...(tool.name === "listInvoices" ? { title: "List invoices" } : {}),
      description: tool.description,
      inputSchema: tool.inputSchema,
      request: tool.request,
    }));
    const patched = await api(t.admin.token).patch(`/api/v1/connectors/${connectorId}`, { tools });
    expect(patched.status, patched.text).toBe(200);
    const client = await connectV1(`${app.origin}/mcp/${serverId}`, t.member.token);
    try {
      const listed = (await client.client.listTools()).tools;
      expect(listed.find((tool) => tool.name.endsWith("listInvoices"))!.title).toBe("List invoices");
      // Left out of the replacing set, the other tool's title is gone with it, as the whole set is replaced.
      expect(listed.find((tool) => tool.name.endsWith("getInvoice"))!.title).toBeUndefined();
    } finally {
      await client.close();
    }
  });
});
