import { randomBytes } from "node:crypto";
import { INSTANCE_CALLER } from "../../lib/auth/caller";
import { generateApiKey } from "../../lib/auth/api-key-secret";
import { createConnector } from "../../lib/connectors/create-connector";
import { db } from "../../lib/db/client";
import { createServer } from "../../lib/servers/servers";

/**
 * The conformance fixture: an organization of its own with one MCP server whose `mcp`
 * connector points at the project's upstream fixture (tests/fixtures/conformance-upstream), whose
 * own resources the gateway publishes and reads through. Created only by scripts/conformance.ts, in the database that
 * script uses (a throwaway one unless DATABASE_URL names another): it is never part of
 * production data unless someone runs the script against production on purpose.
 */

export interface ConformanceFixture {
  serverId: string;
  /** A user API key (org owner) for the fixture's workspace. */
  apiKey: string;
}

/**
 * `protocolEra` is the connector's era; the run keeps the default `auto` on both wires (issue
 * 21): a 2025-era caller of an `auto` connector gets a 2025-era upstream connection of its own
 * (lib/connectors/runtime/upstream-pool.ts), so the fixture's 2025-era tools may ask it for
 * input by server-to-client requests.
 */
export async function createConformanceFixture(upstreamUrl: string, baseUrl: string, protocolEra: "auto" | "2025-11-25" = "auto"): Promise<ConformanceFixture> {
  const suffix = randomBytes(4).toString("hex");
  const org = await db().organization.create({ data: { name: "Conformance fixture", slug: `conformance-${suffix}` }, select: { id: true } });
  const workspace = await db().workspace.create({ data: { orgId: org.id, name: "Conformance", slug: "conformance" }, select: { id: true } });
  const user = await db().user.create({ data: { email: `conformance-${suffix}@fixture.invalid`, name: "Conformance suite" }, select: { id: true } });
  await db().orgMember.create({ data: { orgId: org.id, userId: user.id, role: "owner" } });
  await db().workspaceMember.create({ data: { orgId: org.id, workspaceId: workspace.id, userId: user.id } });
  const { key, prefix, hash } = generateApiKey();
  await db().apiKey.create({ data: { orgId: org.id, workspaceId: workspace.id, userId: user.id, name: "conformance suite", prefix, hash } });

  // Through the domain functions, as an admin would: discovery, validation and audit included.
  const connector = await createConnector(INSTANCE_CALLER, org.id, {
    type: "mcp",
    name: "Conformance fixture",
    instructions: "Tools the MCP conformance suite calls.",
    // Tool approval off: the suite's list-mutation hooks add tools upstream and expect the
    // gateway to pass them on (tools/list_changed) at once, as a connector without approval does;
    // with approval on (the default for new mcp connectors) a new tool rightly waits for an admin.
    config: { url: upstreamUrl, protocolEra, toolApproval: false },
  });
  const server = await createServer(
    INSTANCE_CALLER,
    workspace.id,
    { name: "Conformance fixture", instructions: "The MCP conformance suite's fixture server.", connectorIds: [connector.id] },
    baseUrl,
  );
  return { serverId: server.id, apiKey: key };
}
