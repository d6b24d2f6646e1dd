import type { ReactNode } from "react";
import { type DataColumn, DataTable, type DataRow } from "@/components/lists/data-table";
import type { ConnectedAppView } from "@/lib/oauth/connected-apps";

const day = (d: Date | null) => (d ? <time dateTime={d.toISOString()}>{d.toISOString().slice(0, 10)}</time> : "never");

const COLUMNS: DataColumn[] = [
  { id: "clientName", header: "App", sortable: true },
  { id: "user", header: "Allowed by", wide: true },
  { id: "workspace", header: "Workspace", wide: true },
  { id: "servers", header: "Servers" },
  { id: "createdAt", header: "Allowed", sortable: true, wide: true, className: "text-xs whitespace-nowrap" },
  { id: "lastUsed", header: "Last used", wide: true, className: "text-xs whitespace-nowrap" },
  { id: "revoke", header: "Revoke", className: "text-right" },
];

interface Props {
  apps: ConnectedAppView[];
  nextCursor: string | null;
  place: (app: ConnectedAppView) => string;
  showUser: boolean;
  /** Each row's revoke control. */
  revoke: (app: ConnectedAppView) => ReactNode;
}

/** The connected apps of a person or an organization: searched, sorted and paged by the URL. */
export function ConnectedAppsTable({ apps, nextCursor, place, showUser, revoke }: Props) {
  const rows = apps.map(
    (app): DataRow => ({
      id: app.id,
      label: app.clientName,
      cells: {
        clientName: <span className="font-medium break-words">{app.clientName}</span>,
        user: app.user.name ?? app.user.email,
        workspace: place(app),
        servers: `${app.servers.map((s) => s.name).join(", ") || "none any more"}${app.serverId ? "" : " (via /mcp)"}`,
        createdAt: day(app.createdAt),
        lastUsed: day(app.lastUsedAt),
        revoke: revoke(app),
      },
    }),
  );
  return (
    <DataTable
      caption="Connected apps"
      columns={showUser ? COLUMNS : COLUMNS.filter((c) => c.id !== "user")}
      rows={rows}
      nextCursor={nextCursor}
      searchLabel={showUser ? "Search apps or people" : "Search apps"}
    />
  );
}
