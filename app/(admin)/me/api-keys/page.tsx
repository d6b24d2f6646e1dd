import type { Metadata } from "next";
import { KeyRound } from "lucide-react";
import { PageHeader } from "@/components/ui/page-header";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { Pagination } from "@/components/ui/pagination";
import { Table, TBody, TD, TH, THead } from "@/components/ui/table";
import { cursorParam, loadViewer } from "@/app/(admin)/_lib/context";
import { listMyApiKeys } from "@/lib/api-keys/api-keys";
import { RevokeApiKeyButton } from "@/app/(admin)/w/[workspaceId]/api-keys/revoke-button";

export const metadata: Metadata = { title: "Your API keys" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const day = (d: Date) => <time dateTime={d.toISOString()}>{d.toISOString().slice(0, 10)}</time>;

function status(key: { revokedAt: Date | null; expiresAt: Date | null }) {
  if (key.revokedAt) return <Badge tone="danger">Revoked</Badge>;
  if (key.expiresAt && key.expiresAt.getTime() <= Date.now()) return <Badge tone="warning">Expired</Badge>;
  return <Badge tone="success">Active</Badge>;
}

/**
 * Every key that acts in the signed-in person's name, in every organization — including those an
 * admin issued for them — with who issued it, so they can revoke what they did not ask for.
 */
export default async function MyApiKeysPage({ searchParams }: Props) {
  const { caller, user, orgs } = await loadViewer();
  const cursor = cursorParam((await searchParams).cursor);
  const page = await listMyApiKeys(caller, { cursor, limit: 50 });
  const place = new Map(orgs.flatMap((o) => o.workspaces.map((w) => [w.id, `${o.name} / ${w.name}`] as const)));
  return (
    <div className="mx-auto grid max-w-5xl gap-6">
      <PageHeader
        title="Your API keys"
        description="Every key that acts as you, in every organization. Keys an admin issued in your name are marked with who did; revoke any you do not use."
      />
      {page.items.length === 0 && !cursor ? (
        <EmptyState icon={KeyRound} title="No API keys act as you">
          Create one on a workspace&apos;s API keys page.
        </EmptyState>
      ) : (
        <div>
          <Table>
            <caption className="sr-only">API keys that act as you</caption>
            <THead>
              <tr>
                <TH>Name</TH>
                <TH>Key</TH>
                <TH>Workspace</TH>
                <TH>Issued by</TH>
                <TH>Created</TH>
                <TH>Status</TH>
                <TH className="text-right">Revoke</TH>
              </tr>
            </THead>
            <TBody>
              {page.items.map((k) => (
                <tr key={k.id}>
                  <TD className="font-medium">{k.name}</TD>
                  <TD className="font-mono text-xs whitespace-nowrap">{k.prefix}…</TD>
                  <TD>{place.get(k.workspaceId) ?? "a workspace you have not joined"}</TD>
                  <TD>
                    {!k.createdBy ? "—" : k.createdBy.id === user.id ? "you" : <Badge tone="warning">{k.createdBy.name ?? k.createdBy.email}</Badge>}
                  </TD>
                  <TD className="text-xs whitespace-nowrap">{day(k.createdAt)}</TD>
                  <TD>{status(k)}</TD>
                  <TD className="text-right">{!k.revokedAt && <RevokeApiKeyButton apiKey={{ id: k.id, name: k.name, prefix: k.prefix }} />}</TD>
                </tr>
              ))}
            </TBody>
          </Table>
          <Pagination basePath="/me/api-keys" nextCursor={page.nextCursor} isFirstPage={!cursor} />
        </div>
      )}
    </div>
  );
}
