import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { type DataColumn, DataTable, type DataRow } from "@/components/lists/data-table";
import type { ApiKeyView } from "@/lib/api-keys/api-keys";

/**
 * The one table of API keys: a workspace's keys (its managers see every user's) and a person's
 * own keys in every organization. Rendered on the server, once per request, so "now" is the
 * request's time. Revoking one key is the page's own button (its server action); revoking
 * several is the JSON API's bulk endpoint, each key revoked and audited on its own.
 */

const when = (d: Date | null) => (d ? <time dateTime={d.toISOString()}>{d.toISOString().replace("T", " ").slice(0, 16)} UTC</time> : "—");

function status(key: { revokedAt: Date | null; expiresAt: Date | null }) {
  if (key.revokedAt) return <Badge tone="danger">Revoked</Badge>;
  if (key.expiresAt && key.expiresAt.getTime() <= Date.now()) return <Badge tone="warning">Expired</Badge>;
  return <Badge tone="success">Active</Badge>;
}

/** Who issued a key: shown so a member notices a key an admin made in their name. */
function issuedBy(key: ApiKeyView, viewerId: string) {
  if (!key.createdBy) return "—";
  if (key.createdBy.id === viewerId) return "you";
  const label = key.createdBy.name ?? key.createdBy.email;
  return key.createdBy.id === key.userId ? label : <Badge tone="warning">{label}</Badge>;
}

interface ApiKeyTableProps {
  caption: string;
  keys: ApiKeyView[];
  nextCursor: string | null;
  viewerId: string;
  /** The User column (a workspace's managers see everyone's keys). */
  userOf?: (key: ApiKeyView) => ReactNode;
  /** The Workspace column (a person's keys span organizations). */
  placeOf?: (key: ApiKeyView) => ReactNode;
  /** The Server column: the server a pinned key opens. */
  serverOf?: (key: ApiKeyView) => ReactNode;
  /** The row's own revoke control (not rendered for a revoked key). */
  revokeButton: (key: ApiKeyView) => ReactNode;
}

const column = {
  name: { id: "name", header: "Name", sortable: true },
  prefix: { id: "prefix", header: "Key", sortable: true, className: "font-mono text-xs whitespace-nowrap" },
  user: { id: "user", header: "User", wide: true },
  workspace: { id: "workspace", header: "Workspace", wide: true },
  server: { id: "server", header: "Server", wide: true },
  issuedBy: { id: "issuedBy", header: "Issued by", wide: true },
  createdAt: { id: "createdAt", header: "Created", sortable: true, wide: true, className: "text-xs whitespace-nowrap" },
  lastUsed: { id: "lastUsed", header: "Last used", wide: true, className: "text-xs whitespace-nowrap" },
  expires: { id: "expires", header: "Expires", wide: true, className: "text-xs whitespace-nowrap" },
  status: { id: "status", header: "Status" },
  revoke: { id: "revoke", header: "Revoke", className: "text-right" },
} satisfies Record<string, DataColumn>;

export function ApiKeyTable({ caption, keys, nextCursor, viewerId, userOf, placeOf, serverOf, revokeButton }: ApiKeyTableProps) {
  const columns: DataColumn[] = [
    column.name,
    column.prefix,
    ...(userOf ? [column.user] : []),
    ...(placeOf ? [column.workspace] : []),
    ...(serverOf ? [column.server] : []),
    column.issuedBy,
    column.createdAt,
    column.lastUsed,
    column.expires,
    column.status,
    column.revoke,
  ];
  const rows = keys.map(
    (k): DataRow => ({
      id: k.id,
      label: `${k.name} (${k.prefix}…)`,
      selectable: !k.revokedAt,
      cells: {
        name: <span className="font-medium break-words">{k.name}</span>,
        prefix: `${k.prefix}…`,
        user: userOf?.(k),
        workspace: placeOf?.(k),
        server: serverOf?.(k),
        issuedBy: issuedBy(k, viewerId),
        createdAt: when(k.createdAt),
        lastUsed: k.lastUsedAt ? when(k.lastUsedAt) : "never",
        expires: k.expiresAt ? when(k.expiresAt) : "never",
        status: status(k),
        revoke: !k.revokedAt && revokeButton(k),
      },
    }),
  );
  return (
    <DataTable
      caption={caption}
      columns={columns}
      rows={rows}
      nextCursor={nextCursor}
      searchLabel="Search keys by name or prefix"
      bulk={{ verb: "Revoke", noun: "API key", endpoint: "/api/v1/api-keys/bulk-revoke", warning: "Clients using them stop working on their next request." }}
    />
  );
}
