import type { Caller } from "@/lib/auth/caller";
import { db } from "@/lib/db/client";
import { ValidationError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import * as configVersion from "@/lib/config-version/config-version";
import { assertOrgManaged } from "@/lib/connectors/managed-connector";
import { freeConnectorSlug, slugFromName } from "@/lib/connectors/connector-slug";
import { connectorSelect, type ConnectorView, toConnectorView } from "@/lib/connectors/connector-view";
import { type McpDiscovery, UpstreamUnreachableError, discoverMcpTools } from "@/lib/connectors/discover-mcp-tools";
import type { McpUpstream } from "@/lib/connectors/open-upstream";
import { sealHeaders } from "@/lib/connectors/secret-headers";
import { httpToolRows, mcpToolRows, type ToolRowInput } from "@/lib/connectors/tool-rows";
import type { CreateConnectorBody } from "@/lib/connectors/schemas";
import { assertCredentialMay } from "@/lib/permissions/guards";
import { authColumns, authFieldErrors, type ConnectorAuthInput } from "@/lib/connectors/upstream-auth/auth-settings";
import { clientCredentialsToken } from "@/lib/connectors/upstream-auth/client-credentials";
import type { AuthProvider } from "@modelcontextprotocol/client";

const HEADERS_INPUT: ConnectorAuthInput = { type: "headers" };

/** A client_credentials connector discovers its tools with its own token. */
async function machineAuth(auth: ConnectorAuthInput): Promise<AuthProvider | undefined> {
  if (auth.type !== "client_credentials") return undefined;
  const settings = { connectorId: `new-${Date.now()}`, tokenUrl: auth.tokenUrl, clientId: auth.clientId, clientSecret: auth.clientSecret ?? "", scopes: auth.scopes, audience: auth.audience, version: 0 };
  return { token: () => clientCredentialsToken(settings) };
}

const SLUG_ATTEMPTS = 3;

/**
 * Creates a connector in an organization the caller manages. An `mcp` connector's tools are
 * discovered from its upstream first; an unreachable upstream refuses the creation (422 on
 * `config.url`) and nothing is stored. Secret headers are stored encrypted only.
 */
export async function createConnector(caller: Caller, orgId: string, input: CreateConnectorBody): Promise<ConnectorView> {
  assertCredentialMay(caller, "connectors.manage");
  await assertOrgManaged(db(), caller, orgId); // before any outbound request
  const headers = input.config.headers ?? {};
  const auth = input.auth ?? HEADERS_INPUT;
  const authErrors = authFieldErrors(auth, input.type, false);
  if (authErrors.length > 0) throw new ValidationError(authErrors);
  // An OAuth connector needs no connection to be created: its tools come with the first
  // owner's or admin's connection (lib/connectors/upstream-auth/discover-with-connection.ts).
  const discovered = input.type === "mcp" && auth.type !== "oauth";
  const discovery = discovered ? await discoverOrRefuse({ ...input.config, headers, authProvider: await machineAuth(auth) }) : null;
  const tools = input.type === "http" ? httpToolRows(orgId, input.tools) : mcpToolRows(orgId, discovery?.tools ?? []);
  for (let attempt = 1; ; attempt++) {
    try {
      return await insertConnector(caller, orgId, input, tools, discovery);
    } catch (e) {
      // Two creations raced for the same slug: pick the next free one.
      if ((e as { code?: string }).code !== "P2002" || attempt >= SLUG_ATTEMPTS) throw e;
    }
  }
}

async function discoverOrRefuse(upstream: McpUpstream): Promise<McpDiscovery> {
  try {
    return await discoverMcpTools(upstream);
  } catch (e) {
    if (!(e instanceof UpstreamUnreachableError)) throw e;
    const message = `The MCP server at config.url could not be reached or did not answer as an MCP server: ${e.message}`;
    throw new ValidationError([{ path: "config.url", message }], "The upstream MCP server is unreachable; nothing was created.");
  }
}

async function insertConnector(
  caller: Caller,
  orgId: string,
  input: CreateConnectorBody,
  tools: ToolRowInput[],
  discovery: McpDiscovery | null,
): Promise<ConnectorView> {
  const headers = input.config.headers ?? {};
  return db().$transaction(async (tx) => {
    await assertOrgManaged(tx, caller, orgId);
    const slug = await freeConnectorSlug(tx, orgId, slugFromName(input.name));
    const created = await tx.connector.create({
      data: {
        orgId,
        name: input.name,
        slug,
        type: input.type,
        instructions: input.instructions ?? null,
        config: input.type === "http" ? { baseUrl: input.config.baseUrl } : { url: input.config.url },
        secretHeaders: sealHeaders(headers),
        ...authColumns(input.auth ?? HEADERS_INPUT, input.type),
        protocolVersion: discovery?.protocolVersion ?? null,
        ...(discovery?.eraFallback ? { eraFallback: discovery.eraFallback as object } : {}),
        ...(discovery ? { upstreamCatalog: discovery.catalog as object } : {}),
        ...(input.type === "mcp" ? { protocolEra: input.config.protocolEra ?? "auto", transport: input.config.transport ?? "streamable-http", toolApproval: input.config.toolApproval ?? true } : {}),
        tools: { createMany: { data: tools } },
      },
      select: { id: true },
    });
    await configVersion.bump(tx, orgId);
    await recordAuditEvent(
      caller,
      {
        orgId,
        action: "connector.create",
        targetType: "connector",
        targetId: created.id,
        data: { name: input.name, slug, type: input.type, auth: input.auth?.type ?? "headers", toolCount: tools.length, secretHeaderNames: Object.keys(headers), skippedTools: discovery?.skipped ?? [] },
      },
      tx,
    );
    return toConnectorView(await tx.connector.findFirstOrThrow({ where: { id: created.id, orgId }, select: connectorSelect }));
  });
}
