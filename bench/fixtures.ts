import { randomBytes } from "node:crypto";
import { createSwitchboardClient, ok } from "@switchboard/client";

/**
 * What the benchmarks talk to, created through the admin JSON API (with the typed client,
 * packages/client) and the instance key: an
 * organization, a workspace, a user (org admin) with an API key, an HTTP connector with N tools
 * and an MCP server serving it. Nothing is called upstream (listing tools needs no upstream).
 */
export interface Fixtures {
  orgId: string;
  workspaceId: string;
  serverId: string;
  /** A user API key (sb_…), the credential MCP clients use. */
  userKey: string;
}

export async function createFixtures(baseUrl: string, instanceKey: string, toolCount: number): Promise<Fixtures> {
  const api = createSwitchboardClient({ baseUrl, token: instanceKey });
  const suffix = randomBytes(4).toString("hex");
  const org = await ok(api.POST("/orgs", { body: { name: `Bench ${suffix}`, slug: `bench-${suffix}` } }));
  const orgId = { path: { orgId: org.id } };
  const workspace = await ok(api.POST("/orgs/{orgId}/workspaces", { params: orgId, body: { name: "Bench", slug: "bench" } }));
  const workspaceId = { path: { workspaceId: workspace.id } };
  const user = await ok(api.POST("/users", { body: { email: `bench-${suffix}@example.test`, name: "Bench", orgId: org.id } }));
  await ok(api.POST("/orgs/{orgId}/members", { params: orgId, body: { userId: user.id, role: "owner" } }), [409]);
  // Created by the instance key, the organization has no owner yet: this user becomes it.
  await ok(api.PATCH("/orgs/{orgId}/members/{userId}", { params: { path: { orgId: org.id, userId: user.id } }, body: { role: "owner" } }));
  await ok(api.POST("/workspaces/{workspaceId}/members", { params: workspaceId, body: { userId: user.id } }), [409]);
  const key = await ok(api.POST("/workspaces/{workspaceId}/api-keys", { params: workspaceId, body: { name: "bench", userId: user.id } }));
  const connector = await ok(
    api.POST("/orgs/{orgId}/connectors", {
      params: orgId,
      body: {
        type: "http",
        name: "Bench API",
        instructions: "Synthetic connector of the benchmark.",
        config: { baseUrl: "http://127.0.0.1:9/" },
        tools: Array.from({ length: toolCount }, (_, i) => benchTool(i)),
      },
    }),
  );
  const server = await ok(
    api.POST("/workspaces/{workspaceId}/servers", { params: workspaceId, body: { name: "Bench server", instructions: "Benchmark server.", connectorIds: [connector.id] } }),
  );
  return { orgId: org.id, workspaceId: workspace.id, serverId: server.id, userKey: key.key };
}

/** A realistic tool: a description and a small JSON Schema with a few typed properties. */
function benchTool(i: number) {
  return {
    name: `tool_${String(i).padStart(4, "0")}`,
    description: `Looks up record ${i} of the synthetic benchmark API and returns it as JSON.`,
    inputSchema: {
      type: "object",
      properties: {
        id: { type: "string", description: "Record id" },
        limit: { type: "integer", minimum: 1, maximum: 100 },
        verbose: { type: "boolean" },
      },
      required: ["id"],
    },
    request: { method: "GET" as const, path: `/records/${i}` },
  };
}
