import "server-only";
import { notFound } from "next/navigation";
import { cache } from "react";
import { orNotFound, requireOrgAdmin } from "@/app/(admin)/_lib/context";
import { getConnectorWithTools } from "@/lib/connectors/page-loaded-tools";

/**
 * The connector of the URL for its org's admins (404 otherwise), shared by the layout and its
 * pages; its tools come with their ids so the tools page pages them without reading them again.
 */
export const loadConnector = cache(async (orgId: string, connectorId: string) => {
  const context = await requireOrgAdmin(orgId);
  const { connector, tools } = await orNotFound(getConnectorWithTools(context.caller, connectorId));
  // The URL's org must be the connector's own: /orgs/A/connectors/<B's connector> is not a page.
  if (connector.orgId !== context.org.id) notFound();
  return { ...context, connector, tools };
});

export type ConnectorParams = Promise<{ orgId: string; connectorId: string }>;
