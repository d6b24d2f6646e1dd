import type { Metadata } from "next";
import { KeyRound } from "lucide-react";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ApiKeyTable } from "@/components/api-keys/api-key-table";
import { requestBaseUrl, requireWorkspace } from "@/app/(admin)/_lib/context";
import { readListParams } from "@/app/(admin)/_lib/list-params";
import { listApiKeys } from "@/lib/api-keys/api-keys";
import { ApiKeyListQuery } from "@/lib/api-keys/schemas";
import { listServers } from "@/lib/servers/servers";
import { listKeyOwnerChoices } from "@/lib/api-keys/list-key-owner-choices";
import { NewApiKeyForm } from "@/app/(admin)/w/[workspaceId]/api-keys/new-api-key-form";
import { RevokeApiKeyButton } from "@/app/(admin)/w/[workspaceId]/api-keys/revoke-button";

export const metadata: Metadata = { title: "API keys" };

type Props = { params: Promise<{ workspaceId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ApiKeysPage({ params, searchParams }: Props) {
  const { workspace, caller, isAdmin, userId } = await requireWorkspace((await params).workspaceId);
  const query = readListParams(ApiKeyListQuery, await searchParams);
  const [page, servers, people] = await Promise.all([
    listApiKeys(caller, workspace.id, query),
    // Pinning and issuing keys for others are for managers; members get their own plain keys.
    isAdmin ? listServers(caller, workspace.id, { limit: 200 }, await requestBaseUrl()) : null,
    // Only those the API lets this caller issue a key for: an admin is not offered the owners.
    isAdmin ? listKeyOwnerChoices(caller, workspace.id) : null,
  ]);
  const serverName = new Map(servers?.items.map((s) => [s.id, s.name]));
  const memberName = new Map(people?.members.map((m) => [m.userId, m.name ?? m.email]));
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
            members={people?.choices.map((m) => ({ userId: m.userId, label: m.name ? `${m.name} (${m.email})` : m.email })) ?? null}
            selfId={userId}
          />
        </CardContent>
      </Card>
      {page.items.length === 0 && !query.cursor && !query.q ? (
        <EmptyState icon={KeyRound} title="No API keys yet">
          Create one above and paste it into your MCP client&apos;s configuration (see an MCP server&apos;s page for ready-made snippets).
        </EmptyState>
      ) : (
        <ApiKeyTable
          caption={`API keys of ${workspace.name}`}
          keys={page.items}
          nextCursor={page.nextCursor}
          viewerId={userId}
          userOf={isAdmin ? (k) => (k.userId === userId ? "you" : (memberName.get(k.userId) ?? k.userId)) : undefined}
          serverOf={(k) => (k.serverId ? (serverName.get(k.serverId) ?? "one server") : "all servers")}
          revokeButton={(k) => (people?.unreachable.has(k.userId) ? <span className="text-xs text-zinc-500 dark:text-zinc-400">an owner&apos;s: owners revoke it</span> : <RevokeApiKeyButton apiKey={{ id: k.id, name: k.name, prefix: k.prefix }} />)}
        />
      )}
    </div>
  );
}
