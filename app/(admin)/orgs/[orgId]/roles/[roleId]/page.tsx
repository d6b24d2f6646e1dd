import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ChevronLeft } from "lucide-react";
import { orNotFound, requireOrgAdmin } from "@/app/(admin)/_lib/context";
import { getRole } from "@/lib/roles/roles";
import { etagOf } from "@/lib/api/if-match";
import { listConnectors } from "@/lib/connectors/connectors";
import { listConnectorPrompts } from "@/lib/connectors/list-connector-prompts";
import { RoleEditor } from "@/app/(admin)/orgs/[orgId]/roles/[roleId]/role-editor";

export const metadata: Metadata = { title: "MCP role" };

export default async function RolePage({ params }: { params: Promise<{ orgId: string; roleId: string }> }) {
  const { orgId, roleId } = await params;
  const { org, caller } = await requireOrgAdmin(orgId);
  const role = await orNotFound(getRole(caller, roleId));
  if (role.orgId !== org.id) notFound();
  const [connectors, prompts] = await Promise.all([listConnectors(caller, org.id, { limit: 200 }), listConnectorPrompts(caller, org.id)]);
  return (
    <div className="mx-auto grid max-w-5xl gap-6">
      <div className="grid gap-2">
        <Link href={`/orgs/${org.id}/roles`} className="inline-flex w-fit items-center gap-1 text-sm text-zinc-600 underline-offset-2 hover:underline dark:text-zinc-400">
          <ChevronLeft aria-hidden className="size-4" />
          MCP roles
        </Link>
        <h1 className="text-2xl font-semibold tracking-tight">{role.name}</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Members with this role get exactly the tools and prompts checked here, on every server of their workspace.</p>
      </div>
      <RoleEditor
        orgId={org.id}
        role={{ id: role.id, name: role.name, tools: role.tools, prompts: role.prompts }}
        promptConnectors={prompts}
        version={etagOf(role)}
        connectors={connectors.items.map((c) => ({ id: c.id, name: c.name, type: c.type, tools: c.tools.map((t) => ({ name: t.name, description: t.description })) }))}
      />
    </div>
  );
}
