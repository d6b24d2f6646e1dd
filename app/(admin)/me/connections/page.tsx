import type { Metadata } from "next";
import { Link2 } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { ConnectionFacts, ConnectionStatusBadge } from "@/components/connections/connection-details";
import { loadViewer } from "@/app/(admin)/_lib/context";
import { ConnectButton, DisconnectButton } from "@/app/(admin)/me/connections/connection-buttons";
import { type ConnectionSlot, listMyConnectionSlots } from "@/lib/connectors/upstream-auth/connections-overview";

export const metadata: Metadata = { title: "Connections" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * The upstream accounts the signed-in person connected (issue 24 point 3): every connector of
 * their organizations that uses OAuth, with its status, scopes and expiry, and connect,
 * reconnect or disconnect. A shared connector shows who connected it; owners and admins manage it.
 */
export default async function MyConnectionsPage({ searchParams }: Props) {
  const { caller } = await loadViewer();
  const slots = await listMyConnectionSlots(caller);
  const connected = (await searchParams).connected;
  const justConnected = typeof connected === "string" ? slots.find((s) => s.connector.id === connected && s.connection?.status === "connected") : undefined;
  return (
    <div className="mx-auto grid max-w-4xl gap-6">
      <PageHeader
        title="Connections"
        description="Connectors that act upstream with an account of yours (or one shared by the organization). Connect once; your MCP clients' calls then reach the upstream as you."
      />
      {justConnected && <Alert tone="info">Connected to {justConnected.connector.name}. Retry the call in your MCP client.</Alert>}
      {slots.length === 0 ? (
        <EmptyState icon={Link2} title="No connectors to connect">
          None of your organizations has a connector that signs in to its upstream with OAuth. Once an admin adds one, connect your account to it here.
        </EmptyState>
      ) : (
        <ul className="grid gap-4" aria-label="Connectors that use OAuth">
          {slots.map((slot) => (
            <SlotCard key={slot.connector.id} slot={slot} />
          ))}
        </ul>
      )}
    </div>
  );
}

function SlotCard({ slot }: { slot: ConnectionSlot }) {
  const { connector, connection, mayManage } = slot;
  const shared = connector.connection === "shared";
  const headingId = `connection-${connector.id}`;
  const returnTo = `/me/connections?connected=${encodeURIComponent(connector.id)}`;
  return (
    <li aria-labelledby={headingId} className="grid min-w-0 gap-3 rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900">
      <div className="flex min-w-0 flex-wrap items-center gap-2">
        <h2 id={headingId} className="min-w-0 truncate text-base font-semibold">
          {connector.name}
        </h2>
        <ConnectionStatusBadge status={connection?.status ?? null} stepUpScopes={connection?.stepUpScopes} />
        <Badge tone={shared ? "info" : "neutral"}>{shared ? "Shared" : "Your account"}</Badge>
      </div>
      <p className="min-w-0 truncate text-sm text-zinc-600 dark:text-zinc-400">{connector.orgName}</p>
      {connection ? (
        <ConnectionFacts connection={connection} showMadeBy={shared} />
      ) : (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {shared ? (mayManage ? "Nobody has connected it yet: connect the account everyone's calls will use." : "An owner or admin of the organization connects it for everyone.") : "Connect your account: your calls through this connector then act upstream as you."}
        </p>
      )}
      {mayManage && (
        <div className="flex flex-wrap gap-2">
          <ConnectButton connectorId={connector.id} connectorName={connector.name} label={connection ? "Reconnect" : "Connect"} returnTo={returnTo} variant={connection?.status === "connected" && !connection.stepUpScopes ? "secondary" : "primary"} />
          {connection && <DisconnectButton connectionId={connection.id} connectorName={connector.name} whose={shared ? "the shared account" : "your account"} asAdmin={shared} />}
        </div>
      )}
    </li>
  );
}
