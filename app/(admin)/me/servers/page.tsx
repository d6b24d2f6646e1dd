import type { Metadata } from "next";
import { Server } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { MyServerCard } from "@/components/servers/my-server-card";
import { loadViewer, requestBaseUrl } from "@/app/(admin)/_lib/context";
import { listMyServers } from "@/lib/servers/my-servers";
import { oauthEnabled } from "@/lib/oauth/authorization-server";

export const metadata: Metadata = { title: "My MCP servers" };

/**
 * Every MCP server the signed-in person can use, in every organization: its URL, client
 * configuration to paste, the tools they get there and their own keys (members included:
 * they cannot open the servers' admin pages).
 */
export default async function MyServersPage() {
  const { user } = await loadViewer();
  const servers = await listMyServers({ kind: "user", userId: user.id, apiKey: null }, await requestBaseUrl());
  return (
    <div className="mx-auto grid max-w-4xl gap-6">
      <PageHeader
        title="My MCP servers"
        description="The MCP servers you can use: point your MCP client at a server's URL with one of your API keys. Each server offers the tools your role allows."
      />
      {servers.length === 0 ? (
        <EmptyState icon={Server} title="No MCP servers for you yet">
          Servers belong to workspaces. Once an admin of your organization creates one in a workspace you are in, it appears here with its URL.
        </EmptyState>
      ) : (
        servers.map((server) => <MyServerCard key={server.id} server={server} oauth={oauthEnabled()} />)
      )}
    </div>
  );
}
