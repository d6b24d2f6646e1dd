import type { Metadata } from "next";
import { KeyRound } from "lucide-react";
import { PageHeader } from "@/components/ui/page-header";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { type DataColumn, DataTable, type DataRow } from "@/components/lists/data-table";
import { requestBaseUrl, requireWorkspace } from "@/app/(admin)/_lib/context";
import { readListParams } from "@/app/(admin)/_lib/list-params";
import { listApiKeys } from "@/lib/api-keys/api-keys";
import { ApiKeyListQuery } from "@/lib/api-keys/schemas";
import { listServers } from "@/lib/servers/servers";
import { listWorkspaceMembers } from "@/lib/workspaces/members";
import { NewApiKeyForm } from "@/app/(admin)/w/[workspaceId]/api-keys/new-api-key-form";
import { RevokeApiKeyButton } from "@/app/(admin)/w/[workspaceId]/api-keys/revoke-button";

export const metadata: Metadata = { title: "API keys" };

type Props = { params: Promise<{ workspaceId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const when = (d: Date | null) => (d ? <time dateTime={d.toISOString()}>{d.toISOString().replace("T", " ").slice(0, 16)} UTC</time> : "—");

/** Rendered once per request on the server, so "now" is the request's time. */
function status(key: { revokedAt: Date | null; expiresAt: Date | null }) {
  if (key.revokedAt) return <Badge tone="danger">Revoked</Badge>;
  if (key.expiresAt && key.expiresAt.getTime() <= Date.now()) return <Badge tone="warning">Expired</Badge>;
  return <Badge tone="success">Active</Badge>;
}

/** Who issued a key: shown so a member notices a key an admin made in their name. */
function issuedBy(key: { userId: string; createdBy: { id: string; email: string; name: string | null } | null }, viewerId: string) {
  if (!key.createdBy) return "—";
  if (key.createdBy.id === viewerId) return "you";
  const label = key.createdBy.name ?? key.createdBy.email;
  return key.createdBy.id === key.userId ? label : <Badge tone="warning">{label}</Badge>;
}

const COLUMNS: DataColumn[] = [
  { id: "name", header: "Name", sortable: true },
  { id: "prefix", header: "Key", sortable: true, className: "font-mono text-xs whitespace-nowrap" },
  { id: "user", header: "User", wide: true },
  { id: "server", header: "Server", wide: true },
  { id: "issuedBy", header: "Issued by", wide: true },
  { id: "lastUsed", header: "Last used", wide: true, className: "text-xs whitespace-nowrap" },
  { id: "expires", header: "Expires", wide: true, className: "text-xs whitespace-nowrap" },
  { id: "status", header: "Status" },
  { id: "revoke", header: "Revoke", className: "text-right" },
];

export default async function ApiKeysPage({ params, searchParams }: Props) {
  const { workspace, caller, isAdmin, userId } = await requireWorkspace((await params).workspaceId);
  const query = readListParams(ApiKeyListQuery, await searchParams);
  const [page, servers, members] = await Promise.all([
    listApiKeys(caller, workspace.id, query),
    // Pinning and issuing keys for others are for managers; members get their own plain keys.
    isAdmin ? listServers(caller, workspace.id, { limit: 200 }, await requestBaseUrl()) : null,
    isAdmin ? listWorkspaceMembers(caller, workspace.id, { limit: 200 }) : null,
  ]);
  const serverName = new Map(servers?.items.map((s) => [s.id, s.name]));
  const memberName = new Map(members?.items.map((m) => [m.userId, m.name ?? m.email]));
  return (
    <div className="mx-auto grid max-w-5xl gap-6">
      <PageHeader
        title="API keys"
        description={`Keys for MCP clients and automation in ${workspace.name}. A key acts as its user; pinned, it opens one MCP server only. The secret is shown once, when the key is created.`}
      />
      <Card aria-labelledby="new-key-title">
        <CardHeader>
          <CardTitle id="new-key-title">New API key</CardTitle>
          <CardDescription>Name it after where it will be used (e.g. &quot;Claude Desktop on my laptop&quot;).</CardDescription>
        </CardHeader>
        <CardContent>
          <NewApiKeyForm
            workspaceId={workspace.id}
            servers={servers?.items.map((s) => ({ id: s.id, name: s.name })) ?? null}
            members={members?.items.map((m) => ({ userId: m.userId, label: m.name ? `${m.name} (${m.email})` : m.email })) ?? null}
            selfId={userId}
          />
        </CardContent>
      </Card>
      {page.items.length === 0 && !query.cursor && !query.q ? (
        <EmptyState icon={KeyRound} title="No API keys yet">
          Create one above and paste it into your MCP client&apos;s configuration (see an MCP server&apos;s page for ready-made snippets).
        </EmptyState>
      ) : (
        <DataTable
          caption={`API keys of ${workspace.name}`}
          columns={isAdmin ? COLUMNS : COLUMNS.filter((c) => c.id !== "user")}
          rows={page.items.map((k): DataRow => ({
            id: k.id,
            label: `${k.name} (${k.prefix}…)`,
            selectable: !k.revokedAt,
            cells: {
              name: <span className="font-medium">{k.name}</span>,
              prefix: `${k.prefix}…`,
              user: k.userId === userId ? "you" : (memberName.get(k.userId) ?? k.userId),
              server: k.serverId ? (serverName.get(k.serverId) ?? "one server") : "all servers",
              issuedBy: issuedBy(k, userId),
              lastUsed: k.lastUsedAt ? when(k.lastUsedAt) : "never",
              expires: k.expiresAt ? when(k.expiresAt) : "never",
              status: status(k),
              revoke: !k.revokedAt && <RevokeApiKeyButton apiKey={{ id: k.id, name: k.name, prefix: k.prefix }} />,
            },
          }))}
          nextCursor={page.nextCursor}
          searchLabel="Search keys by name or prefix"
          bulk={{ verb: "Revoke", noun: "API key", endpoint: "/api/v1/api-keys/bulk-revoke", warning: "Clients using them stop working on their next request." }}
        />
      )}
    </div>
  );
}
