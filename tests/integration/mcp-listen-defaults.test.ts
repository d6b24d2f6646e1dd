import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { api } from "@/tests/helpers/api";
import { createHttpConnector, createTenant } from "@/tests/helpers/factories";
import { connectV2 } from "@/tests/helpers/mcp-clients";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";

/**
 * Issue 21 point 3: "each capability is exercised at least once with the defaults". Change
 * notifications were tested only with stateful sessions on and a fast reconcile poll; here
 * nothing is set — stateless serving, the default 2 s poll, no Redis — and a 2026-07-28 client's
 * subscriptions/listen stream still hears that its tools changed (the announcement of the
 * committed change reaches this instance at once; the poll is the fallback).
 */

let app: RouteServer;
beforeAll(async () => {
  app = await startRouteServer();
});
afterAll(() => app.close());

describe("change notifications on a default install", () => {
  it("a subscriptions/listen stream receives tools/list_changed when the server's connectors change", async () => {
    const t = await createTenant();
    const crm = await createHttpConnector(t, "CRM", ["get_customer"]);
    const billing = await createHttpConnector(t, "Billing", ["list_invoices"]);
    const server = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Defaults", connectorIds: [crm] });
    expect(server.status, server.text).toBe(201);
    const { client, close } = await connectV2(`${app.origin}/mcp/${server.body.id}`, t.admin.token);
    const changed = vi.fn();
    client.setNotificationHandler("notifications/tools/list_changed", changed);
    const subscription = await client.listen({ toolsListChanged: true });
    try {
      expect((await client.listTools({}, { cacheMode: "bypass" })).tools.map((tool) => tool.name)).toEqual(["get_customer"]);
      expect((await api(t.admin.token).put(`/api/v1/servers/${server.body.id}/connectors`, { connectorIds: [billing] })).status).toBe(200);
      await vi.waitFor(() => expect(changed).toHaveBeenCalled(), { timeout: 15_000 });
      expect((await client.listTools({}, { cacheMode: "bypass" })).tools.map((tool) => tool.name)).toEqual(["list_invoices"]);
    } finally {
      await subscription.close();
      await close();
    }
  });
});
