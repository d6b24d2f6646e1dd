import { randomBytes } from "node:crypto";

/**
 * What the benchmarks talk to, created through the admin JSON API with the instance key: an
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
  const call = adminClient(baseUrl, instanceKey);
  const suffix = randomBytes(4).toString("hex");
  const org = await call("POST", "/orgs", { name: `Bench ${suffix}`, slug: `bench-${suffix}` });
  const workspace = await call("POST", `/orgs/${org.id}/workspaces`, { name: "Bench", slug: "bench" });
  const user = await call("POST", "/users", { email: `bench-${suffix}@example.test`, name: "Bench", orgId: org.id });
  await call("POST", `/orgs/${org.id}/members`, { userId: user.id, role: "owner" }, [409]);
  // Created by the instance key, the organization has no owner yet: this user becomes it.
  await call("PATCH", `/orgs/${org.id}/members/${user.id}`, { role: "owner" });
  await call("POST", `/workspaces/${workspace.id}/members`, { userId: user.id }, [409]);
  const key = await call("POST", `/workspaces/${workspace.id}/api-keys`, { name: "bench", userId: user.id });
  const connector = await call("POST", `/orgs/${org.id}/connectors`, {
    type: "http",
    name: "Bench API",
    instructions: "Synthetic connector of the benchmark.",
    config: { baseUrl: "http://127.0.0.1:9/" },
    tools: Array.from({ length: toolCount }, (_, i) => benchTool(i)),
  });
  const server = await call("POST", `/workspaces/${workspace.id}/servers`, {
    name: "Bench server",
    instructions: "Benchmark server.",
    connectorIds: [connector.id],
  });
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
    request: { method: "GET", path: `/records/${i}` },
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are checked by status only
type Json = any;

function adminClient(baseUrl: string, key: string) {
  return async (method: string, path: string, body?: unknown, tolerated: number[] = []): Promise<Json> => {
    const response = await fetch(`${baseUrl}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok && !tolerated.includes(response.status)) {
      throw new Error(`${method} /api/v1${path} → ${response.status}: ${text.slice(0, 500)}`);
    }
    return text ? JSON.parse(text) : null;
  };
}
