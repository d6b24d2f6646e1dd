/**
 * Who is making a request. Every domain function takes a Caller and encodes what it may see
 * inside its queries (lib/tenancy/scopes.ts).
 */
export interface ApiKeyScope {
  id: string;
  orgId: string;
  workspaceId: string;
  /** Pinned to one MCP server, or null for every server of the workspace. */
  serverId: string | null;
  /** Only these servers of the workspace (what an OAuth grant's consent chose); absent: every one. */
  serverIds?: string[];
  /** When the key stops working (ms since the epoch), or null; keys it issues expire no later. */
  expiresAt?: number | null;
  /** The highest organization role the key acts with, whatever its user's role (lib/permissions); absent: its user's. */
  maxRole?: "owner" | "admin" | "member" | null;
}

/** The OAuth client (MCP app) a user's access token was issued to: audit shows "via <name>". */
export interface OauthClientRef {
  clientId: string;
  name: string;
}

export type Caller =
  | { kind: "instance" }
  | { kind: "user"; userId: string; apiKey: ApiKeyScope | null; oauthClient?: OauthClientRef };

export const INSTANCE_CALLER: Caller = { kind: "instance" };

/** A stable label for audit events and logs. */
export function describeCaller(caller: Caller): { actorType: string; actorId: string | null } {
  if (caller.kind === "instance") return { actorType: "instance", actorId: null };
  if (caller.oauthClient) return { actorType: "oauth_client", actorId: caller.userId };
  if (caller.apiKey) return { actorType: "api_key", actorId: caller.userId };
  return { actorType: "user", actorId: caller.userId };
}
