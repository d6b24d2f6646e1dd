import { textFlaw } from "@/lib/api/validate-text";

/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728) for the MCP endpoints: what an MCP client
 * reads, after a 401, to learn which authorization server issues tokens for the endpoint it
 * called. Each `/mcp/<serverId>` and `/mcp` is its own protected resource, so a token can be
 * bound to exactly the endpoint it was issued for (RFC 8707 resource indicators).
 */

/** The scope every MCP endpoint needs; which servers a token reaches is chosen at consent, not by scope. */
export const MCP_SCOPE = "mcp";
/**
 * What a 401 asks for. `offline_access` too: better-auth issues a refresh token only for it, and
 * clients such as the MCP SDK v1 request exactly the challenge's scope — without it they would
 * send their user back through sign-in every hour.
 */
export const CHALLENGE_SCOPE = `${MCP_SCOPE} offline_access`;

/** Where RFC 9728 puts the metadata: the well-known prefix inserted before the resource's path. */
export const PROTECTED_RESOURCE_PREFIX = "/.well-known/oauth-protected-resource";

/** The MCP endpoint a protected resource is: the shared `/mcp` or one server's `/mcp/<id>`. */
export type ResourceEndpoint = { kind: "shared" } | { kind: "server"; serverId: string };

export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  scopes_supported: string[];
  bearer_methods_supported: string[];
  resource_name: string;
  resource_documentation?: string;
}

function endpointPath(endpoint: ResourceEndpoint): string {
  return endpoint.kind === "shared" ? "/mcp" : `/mcp/${encodeURIComponent(endpoint.serverId)}`;
}

/** The endpoint's public URL: the `resource` value and the audience of its tokens. */
export function resourceUrl(base: string, endpoint: ResourceEndpoint): string {
  return `${base}${endpointPath(endpoint)}`;
}

/** The absolute URL of an endpoint's metadata document, as the 401 challenge names it. */
export function resourceMetadataUrl(base: string, endpoint: ResourceEndpoint): string {
  return `${base}${PROTECTED_RESOURCE_PREFIX}${endpointPath(endpoint)}`;
}

/**
 * The metadata for a resource: an MCP endpoint, or the whole instance (`endpoint` null, the
 * root well-known document that clients fall back to; its `resource` is the origin, as RFC 9728
 * §3.3 requires the value to match the URL the document was fetched for).
 */
export function protectedResourceMetadata(base: string, endpoint: ResourceEndpoint | null): ProtectedResourceMetadata {
  return {
    resource: endpoint ? resourceUrl(base, endpoint) : base,
    // The issuer of tokens for every endpoint: this instance itself.
    authorization_servers: [base],
    scopes_supported: CHALLENGE_SCOPE.split(" "),
    bearer_methods_supported: ["header"],
    resource_name: endpoint?.kind === "server" ? "Switchboard MCP server" : "Switchboard",
  };
}

/**
 * The endpoint a well-known path names (`/mcp`, `/mcp/<id>`), or null for none. Any
 * well-formed server id is answered, existing or not, in any organization: the document is
 * public and identical for every id, so answering only for existing servers would let anyone
 * probe which ids exist in other tenants (a missing server and another tenant's are always the
 * same answer here). Whether the caller may reach the server is decided after sign-in. The demo
 * endpoint takes no credentials, so it is no protected resource.
 */
export function endpointForResourcePath(path: string): ResourceEndpoint | null {
  if (path === "/mcp") return { kind: "shared" };
  const match = /^\/mcp\/([^/]+)$/.exec(path);
  if (!match) return null;
  let serverId: string;
  try {
    serverId = decodeURIComponent(match[1]);
  } catch {
    return null;
  }
  if (serverId === "demo" || serverId === "" || textFlaw(serverId)) return null;
  return { kind: "server", serverId };
}
