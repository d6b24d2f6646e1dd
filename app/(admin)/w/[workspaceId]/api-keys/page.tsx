import type { Metadata } from "next";
import { KeyRound } from "lucide-react";
import { PageHeader } from "@/components/ui/page-header";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Pagination } from "@/components/ui/pagination";
import { Table, TBody, TD, TH, THead } from "@/components/ui/table";
import { cursorParam, requestBaseUrl, requireWorkspace } from "@/app/(admin)/_lib/context";
import { listApiKeys } from "@/lib/api-keys/api-keys";
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

export default async function ApiKeysPage({ params, searchParams }: Props) {
  const { workspace, caller, isAdmin, userId } = await requireWorkspace((await params).workspaceId);
  const cursor = cursorParam((await searchParams).cursor);
  const [page, servers, members] = await Promise.all([
    listApiKeys(caller, workspace.id, { cursor, limit: 50 }),
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
      {page.items.length === 0 && !cursor ? (
        <EmptyState icon={KeyRound} title="No API keys yet">
          Create one above and paste it into your MCP client&apos;s configuration (see an MCP server&apos;s page for ready-made snippets).
        </EmptyState>
      ) : (
        <div>
          <Table>
            <caption className="sr-only">API keys of {workspace.name}</caption>
            <THead>
              <tr>
                <TH>Name</TH>
                <TH>Key</TH>
                {isAdmin && <TH>User</TH>}
                <TH>Server</TH>
                <TH>Issued by</TH>
                <TH>Last used</TH>
                <TH>Expires</TH>
                <TH>Status</TH>
                <TH className="text-right">Revoke</TH>
              </tr>
            </THead>
            <TBody>
              {page.items.map((k) => (
                <tr key={k.id}>
                  <TD className="font-medium">{k.name}</TD>
                  <TD className="font-mono text-xs whitespace-nowrap">{k.prefix}…</TD>
                  {isAdmin && <TD>{k.userId === userId ? "you" : (memberName.get(k.userId) ?? k.userId)}</TD>}
                  <TD>{k.serverId ? (serverName.get(k.serverId) ?? "one server") : "all servers"}</TD>
                  <TD>{issuedBy(k, userId)}</TD>
                  <TD className="text-xs whitespace-nowrap">{k.lastUsedAt ? when(k.lastUsedAt) : "never"}</TD>
                  <TD className="text-xs whitespace-nowrap">{k.expiresAt ? when(k.expiresAt) : "never"}</TD>
                  <TD>{status(k)}</TD>
                  <TD className="text-right">{!k.revokedAt && <RevokeApiKeyButton apiKey={{ id: k.id, name: k.name, prefix: k.prefix }} />}</TD>
                </tr>
              ))}
            </TBody>
          </Table>
          <Pagination basePath={`/w/${workspace.id}/api-keys`} nextCursor={page.nextCursor} isFirstPage={!cursor} />
        </div>
      )}
    </div>
  );
}
