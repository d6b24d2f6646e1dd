/**
 * Whom one host-resources request from an upstream server is answered for (seed 000 "Scope"):
 * the workspace of the connection and the user the tool runs for. The outbound connection that
 * carries the request belongs to exactly this (workspace, user, connector).
 */
export interface HostResourcesContext {
  orgId: string;
  workspaceId: string;
  /** The user on whose behalf tools run; null for the instance credential (sees the workspace's shared files only). */
  userId: string | null;
  connectorId: string;
}
