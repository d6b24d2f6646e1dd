import type { ReactNode } from "react";
import { Table, TBody, TD, TH, THead } from "@/components/ui/table";
import type { ConnectedAppView } from "@/lib/oauth/connected-apps";

const day = (d: Date | null) => (d ? <time dateTime={d.toISOString()}>{d.toISOString().slice(0, 10)}</time> : "never");

/** The connected apps of a person or an organization; `revoke` gives each row's revoke control. */
export function ConnectedAppsTable({ apps, place, showUser, revoke }: { apps: ConnectedAppView[]; place: (app: ConnectedAppView) => string; showUser: boolean; revoke: (app: ConnectedAppView) => ReactNode }) {
  return (
    <Table>
      <caption className="sr-only">Connected apps</caption>
      <THead>
        <tr>
          <TH>App</TH>
          {showUser && <TH>Allowed by</TH>}
          <TH>Workspace</TH>
          <TH>Servers</TH>
          <TH>Allowed</TH>
          <TH>Last used</TH>
          <TH className="text-right">Revoke</TH>
        </tr>
      </THead>
      <TBody>
        {apps.map((app) => (
          <tr key={app.id}>
            <TD className="font-medium">{app.clientName}</TD>
            {showUser && <TD>{app.user.name ?? app.user.email}</TD>}
            <TD>{place(app)}</TD>
            <TD>{app.servers.map((s) => s.name).join(", ") || "none any more"}{app.serverId ? "" : " (via /mcp)"}</TD>
            <TD className="text-xs whitespace-nowrap">{day(app.createdAt)}</TD>
            <TD className="text-xs whitespace-nowrap">{day(app.lastUsedAt)}</TD>
            <TD className="text-right">{revoke(app)}</TD>
          </tr>
        ))}
      </TBody>
    </Table>
  );
}
