import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/ui/page-header";
import { requireOrgAdmin } from "@/app/(admin)/_lib/context";
import { HttpConnectorCreateForm } from "@/app/(admin)/orgs/[orgId]/connectors/new/http-connector-form";
import { McpConnectorCreateForm } from "@/app/(admin)/orgs/[orgId]/connectors/new/mcp-connector-form";

export const metadata: Metadata = { title: "New connector" };

type Props = { params: Promise<{ orgId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function NewConnectorPage({ params, searchParams }: Props) {
  const { org } = await requireOrgAdmin((await params).orgId);
  const type = (await searchParams).type === "mcp" ? "mcp" : "http";
  return (
    <div className="mx-auto grid max-w-4xl gap-6">
      <PageHeader
        title={type === "http" ? "New HTTP connector" : "New MCP connector"}
        description={
          type === "http" ? (
            <>
              Tools that call an HTTP API. Prefer an upstream MCP server?{" "}
              <Link className="underline" href={`/orgs/${org.id}/connectors/new?type=mcp`}>
                Connect one instead
              </Link>
              .
            </>
          ) : (
            <>
              The tools of an upstream MCP server (Streamable HTTP), discovered when you save. Describing an HTTP API instead?{" "}
              <Link className="underline" href={`/orgs/${org.id}/connectors/new?type=http`}>
                Create an HTTP connector
              </Link>
              .
            </>
          )
        }
      />
      {type === "http" ? <HttpConnectorCreateForm orgId={org.id} /> : <McpConnectorCreateForm orgId={org.id} />}
    </div>
  );
}
