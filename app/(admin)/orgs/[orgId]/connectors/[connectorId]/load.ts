import "server-only";
import { notFound } from "next/navigation";
import { cache } from "react";
import { orNotFound, requireOrgAdmin } from "@/app/(admin)/_lib/context";
import { getConnector } from "@/lib/connectors/connectors";

/** The connector of the URL for its org's admins (404 otherwise), shared by the layout and its pages. */
export const loadConnector = cache(async (orgId: string, connectorId: string) => {
  const context = await requireOrgAdmin(orgId);
  const connector = await orNotFound(getConnector(context.caller, connectorId));
  // The URL's org must be the connector's own: /orgs/A/connectors/<B's connector> is not a page.
  if (connector.orgId !== context.org.id) notFound();
  return { ...context, connector };
});

export type ConnectorParams = Promise<{ orgId: string; connectorId: string }>;
