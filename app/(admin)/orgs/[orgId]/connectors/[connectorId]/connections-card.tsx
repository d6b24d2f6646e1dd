import { Alert } from "@/components/ui/alert";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TBody, TD, TH, THead } from "@/components/ui/table";
import { ConnectionStatusBadge, personName } from "@/components/connections/connection-details";
import { ConnectButton, DisconnectButton } from "@/app/(admin)/me/connections/connection-buttons";
import type { Caller } from "@/lib/auth/caller";
import type { ConnectorAuth } from "@/lib/connectors/upstream-auth/auth-schemas";
import { listConnectorConnections } from "@/lib/connectors/upstream-auth/connections";

const day = (d: Date | null) => (d ? <time dateTime={d.toISOString()}>{d.toISOString().slice(0, 16).replace("T", " ")}</time> : "—");

/**
 * An OAuth connector's connections for its admins (issue 24 points 3 and 5): who is connected
 * and since when, with remove; connecting one's own account from here, which for a `per_user`
 * connector without tools yet is what discovers them.
 */
export async function ConnectionsCard({ caller, connector }: { caller: Caller; connector: { id: string; orgId: string; name: string; auth: ConnectorAuth; toolCount: number } }) {
  if (connector.auth.type !== "oauth") return null;
  const shared = connector.auth.connection === "shared";
  const page = await listConnectorConnections(caller, connector.id, { limit: 100 });
  const needsTools = !shared && connector.toolCount === 0;
  const returnTo = `/orgs/${connector.orgId}/connectors/${connector.id}`;
  return (
    <Card aria-labelledby="connector-connections">
      <CardHeader>
        <CardTitle id="connector-connections">Connections</CardTitle>
        <CardDescription>
          {shared
            ? "Shared: one account, connected by an owner or admin, serves everyone's calls."
            : "Per person: each person connects their own upstream account and their calls act upstream as them."}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {needsTools && (
          <Alert tone="info">
            No tools yet: connect to discover tools. The first owner or admin who connects their account lists the upstream&apos;s tools with it.
          </Alert>
        )}
        <div className="flex flex-wrap gap-2">
          <ConnectButton
            connectorId={connector.id}
            connectorName={connector.name}
            label={needsTools ? "Connect to discover tools" : shared ? "Connect the shared account" : "Connect your account"}
            returnTo={returnTo}
            variant={needsTools || page.items.length === 0 ? "primary" : "secondary"}
          />
        </div>
        {page.items.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">Nobody is connected yet.</p>
        ) : (
          <Table>
            <caption className="sr-only">Who is connected to {connector.name}</caption>
            <THead>
              <tr>
                <TH>{shared ? "Connected by" : "Person"}</TH>
                <TH>Status</TH>
                <TH>Since</TH>
                <TH>Token expires</TH>
                <TH>Scopes</TH>
                <TH className="text-right">Remove</TH>
              </tr>
            </THead>
            <TBody>
              {page.items.map((c) => (
                <tr key={c.id}>
                  <TD className="max-w-56 truncate">{personName(c.user)}</TD>
                  <TD>
                    <ConnectionStatusBadge status={c.status} stepUpScopes={c.stepUpScopes} />
                  </TD>
                  <TD className="text-xs whitespace-nowrap">{day(c.createdAt)}</TD>
                  <TD className="text-xs whitespace-nowrap">{day(c.expiresAt)}</TD>
                  <TD className="max-w-48 truncate font-mono text-xs">{c.scopes.join(" ") || "—"}</TD>
                  <TD className="text-right">
                    <DisconnectButton connectionId={c.id} connectorName={connector.name} whose={shared ? "the shared account" : personName(c.user)} asAdmin label="Remove" />
                  </TD>
                </tr>
              ))}
            </TBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
