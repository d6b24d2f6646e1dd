import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSwitchboardClient, ok, SwitchboardApiError } from "@switchboard/client";
import { createFixtures } from "@/bench/fixtures";
import { createTenant, INSTANCE_KEY } from "@/tests/helpers/factories";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";

/**
 * Issue 27: the typed client (packages/client) against the real route handlers over real HTTP:
 * the benchmark's fixtures are made with it, and an error answer comes back as its problem+json.
 */

let server: RouteServer;
beforeAll(async () => {
  server = await startRouteServer();
});
afterAll(() => server.close());

describe("@switchboard/client", () => {
  it("sets up the benchmark's organization, connector and MCP server (bench/fixtures.ts)", async () => {
    const fixtures = await createFixtures(server.origin, INSTANCE_KEY, 3);
    const asUser = createSwitchboardClient({ baseUrl: server.origin, token: fixtures.userKey });
    const mcpServer = await ok(asUser.GET("/servers/{serverId}", { params: { path: { serverId: fixtures.serverId } } }));
    expect(mcpServer.url).toMatch(new RegExp(`/mcp/${fixtures.serverId}$`));
    const [connectorId] = mcpServer.connectorIds;
    const tools = await ok(asUser.GET("/connectors/{connectorId}/tools", { params: { path: { connectorId }, query: { limit: 2 } } }));
    expect(tools.items.map((t) => t.name)).toEqual(["tool_0000", "tool_0001"]);
    expect(tools.nextCursor).not.toBeNull();
    const orgs = await ok(asUser.GET("/orgs"));
    expect(orgs.items.map((o) => o.id)).toEqual([fixtures.orgId]);
  });

  it("reads and plans an organization's configuration document as JSON (the API's default answer is YAML)", async () => {
    const t = await createTenant();
    const client = createSwitchboardClient({ baseUrl: server.origin, token: t.owner.token });
    const document = await ok(client.GET("/orgs/{orgId}/config", { params: { path: { orgId: t.org.id } } }));
    expect(document.workspaces?.map((w) => w.slug)).toEqual([expect.any(String)]);
    const plan = await ok(client.POST("/orgs/{orgId}/config/plan", { params: { path: { orgId: t.org.id } }, body: document }));
    expect(plan.changes).toEqual([]);
    const yaml = await client.GET("/orgs/{orgId}/config", { params: { path: { orgId: t.org.id } }, headers: { accept: "application/yaml" }, parseAs: "text" });
    expect(yaml.data).toMatch(/^version: 1\n/);
  });

  it("answers another tenant's object as the API's 404 problem, and ok() throws it", async () => {
    const [a, b] = [await createTenant(), await createTenant()];
    const client = createSwitchboardClient({ baseUrl: `${server.origin}/api/v1/`, token: a.admin.token });
    const answer = await client.GET("/workspaces/{workspaceId}", { params: { path: { workspaceId: b.workspace.id } } });
    expect(answer.response.status).toBe(404);
    expect(answer.error).toMatchObject({ status: 404, title: "Not found" });
    const thrown = await ok(client.GET("/workspaces/{workspaceId}", { params: { path: { workspaceId: b.workspace.id } } })).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(SwitchboardApiError);
    expect(thrown).toMatchObject({ status: 404, problem: { status: 404 } });
    // A taken slug is a conflict the caller may tolerate: undefined, not an exception.
    const again = await ok(client.POST("/orgs/{orgId}/workspaces", { params: { path: { orgId: a.org.id } }, body: { name: "Again", slug: a.workspace.slug } }), [409]);
    expect(again).toBeUndefined();
  });

  it("sends no credential unless given one: 401", async () => {
    const anonymous = createSwitchboardClient({ baseUrl: server.origin });
    const answer = await anonymous.GET("/orgs");
    expect(answer.response.status).toBe(401);
    expect(answer.error?.detail).toMatch(/credential/i);
  });
});
