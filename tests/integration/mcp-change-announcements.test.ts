import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { api } from "@/tests/helpers/api";
import { createTenant } from "@/tests/helpers/factories";
import { connectV1 } from "@/tests/helpers/mcp-clients";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";

/**
 * Issue 7: "live stateful sessions … receive tools/list_changed (Redis pub/sub)". A change
 * made through the admin API is announced once it has committed, and live sessions reconcile
 * on the announcement rather than at their next poll: here the poll is ten minutes away.
 * (Without REDIS_URL the announcement reaches this instance only; ratelimit-redis tests cover
 * the Redis transport of the same pub/sub.)
 */

process.env.MCP_STATEFUL_SESSIONS = "true";
process.env.MCP_RECONCILE_INTERVAL_MS = "600000";

let app: RouteServer;
beforeAll(async () => {
  app = await startRouteServer();
});
afterAll(() => app.close());

describe("configuration changes are announced to live sessions", () => {
  it("reassigning a server's connectors sends tools/list_changed at once, without waiting for the poll", async () => {
    const t = await createTenant();
    const ids: string[] = [];
    for (const name of ["CRM", "Billing"]) {
      const res = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
        type: "http",
        name,
        config: { baseUrl: "https://api.example.com" },
        tools: [{ name: `${name.toLowerCase()}_lookup`, request: { method: "GET", path: "/x" } }],
      });
      expect(res.status, res.text).toBe(201);
      ids.push(res.body.id);
    }
    const server = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "S", connectorIds: [ids[0]] });
    const { client, close } = await connectV1(`${app.origin}/mcp/${server.body.id}`, t.admin.token);
    try {
      const changed = vi.fn();
      client.setNotificationHandler(ToolListChangedNotificationSchema, changed);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["crm_lookup"]);

      const put = await api(t.admin.token).put(`/api/v1/servers/${server.body.id}/connectors`, { connectorIds: [ids[1]] });
      expect(put.status).toBe(200);
      await vi.waitFor(() => expect(changed).toHaveBeenCalled(), { timeout: 15_000 });
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["billing_lookup"]);
    } finally {
      await close();
    }
  });
});
