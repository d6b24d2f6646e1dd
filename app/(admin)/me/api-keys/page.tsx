import type { Metadata } from "next";
import { KeyRound } from "lucide-react";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { ApiKeyTable } from "@/components/api-keys/api-key-table";
import { loadViewer } from "@/app/(admin)/_lib/context";
import { readListParams } from "@/app/(admin)/_lib/list-params";
import { listMyApiKeys } from "@/lib/api-keys/api-keys";
import { ApiKeyListQuery } from "@/lib/api-keys/schemas";
import { RevokeApiKeyButton } from "@/app/(admin)/w/[workspaceId]/api-keys/revoke-button";

export const metadata: Metadata = { title: "Your API keys" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * Every key that acts in the signed-in person's name, in every organization — including those an
 * admin issued for them — with who issued it, so they can revoke what they did not ask for.
 */
export default async function MyApiKeysPage({ searchParams }: Props) {
  const { caller, user, orgs } = await loadViewer();
  const query = readListParams(ApiKeyListQuery, await searchParams);
  const page = await listMyApiKeys(caller, query);
  const place = new Map(orgs.flatMap((o) => o.workspaces.map((w) => [w.id, `${o.name} / ${w.name}`] as const)));
  return (
    <div className="mx-auto grid max-w-5xl gap-6">
      <PageHeader
        title="Your API keys"
        description="Every key that acts as you, in every organization. Keys an admin issued in your name are marked with who did; revoke any you do not use."
      />
      {page.items.length === 0 && !query.cursor && !query.q ? (
        <EmptyState icon={KeyRound} title="No API keys act as you">
          Create one on a workspace&apos;s API keys page.
        </EmptyState>
      ) : (
        <ApiKeyTable
          caption="API keys that act as you"
          keys={page.items}
          nextCursor={page.nextCursor}
          viewerId={user.id}
          placeOf={(k) => place.get(k.workspaceId) ?? "a workspace you have not joined"}
          revokeButton={(k) => <RevokeApiKeyButton apiKey={{ id: k.id, name: k.name, prefix: k.prefix }} />}
        />
      )}
    </div>
  );
}
