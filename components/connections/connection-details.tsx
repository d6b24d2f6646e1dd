import { Badge } from "@/components/ui/badge";

/** How a connection reads in the console: its status badge and its facts (scopes, expiry, since when, who). */

export type ConnectionStatus = "connected" | "needs_reconnect" | null;

export function ConnectionStatusBadge({ status, stepUpScopes }: { status: ConnectionStatus; stepUpScopes?: string[] }) {
  if (status === "connected") {
    // A pending step-up: the connection still works; only calls that need more access wait for a reconnect.
    if (stepUpScopes) return <Badge tone="warning">Connected · needs more access</Badge>;
    return <Badge tone="success">Connected</Badge>;
  }
  if (status === "needs_reconnect") return <Badge tone="warning">Needs reconnect</Badge>;
  return <Badge tone="neutral">Not connected</Badge>;
}

const when = (d: Date) => <time dateTime={d.toISOString()}>{d.toISOString().slice(0, 16).replace("T", " ")} UTC</time>;

export function personName(person: { email: string; name: string | null } | null | undefined): string {
  return person ? (person.name ?? person.email) : "a person no longer here";
}

/** The facts of one connection as a description list; long scope names wrap rather than widen the page. */
export function ConnectionFacts({
  connection,
  showMadeBy,
}: {
  connection: { scopes: string[]; stepUpScopes?: string[]; expiresAt: Date | null; createdAt: Date; madeBy?: { email: string; name: string | null } | null };
  showMadeBy: boolean;
}) {
  return (
    <dl className="grid min-w-0 grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
      {showMadeBy && (
        <>
          <dt className="text-zinc-600 dark:text-zinc-400">Connected by</dt>
          <dd className="min-w-0 break-words">{personName(connection.madeBy)}</dd>
        </>
      )}
      <dt className="text-zinc-600 dark:text-zinc-400">Scopes</dt>
      <dd className="min-w-0 font-mono text-xs break-words">{connection.scopes.length > 0 ? connection.scopes.join(" ") : "none named"}</dd>
      {connection.stepUpScopes && (
        <>
          <dt className="text-zinc-600 dark:text-zinc-400">Needs more access</dt>
          <dd className="min-w-0 text-xs break-words">
            The upstream asked for more: reconnect to grant <span className="font-mono">{connection.stepUpScopes.join(" ")}</span>. Other calls still work.
          </dd>
        </>
      )}
      <dt className="text-zinc-600 dark:text-zinc-400">Token expires</dt>
      <dd>{connection.expiresAt ? when(connection.expiresAt) : "not said by the upstream"} </dd>
      <dt className="text-zinc-600 dark:text-zinc-400">Connected since</dt>
      <dd>{when(connection.createdAt)}</dd>
    </dl>
  );
}
