import Link from "next/link";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { OverviewOrg } from "@/lib/shell/overview";
import { plural } from "@/components/ui/plural";

export function OrgCard({ org }: { org: OverviewOrg }) {
  const headingId = `org-${org.id}`;
  return (
    <Card aria-labelledby={headingId}>
      <CardHeader>
        <CardTitle id={headingId}>
          {org.role === "member" ? (
            org.name
          ) : (
            <Link href={`/orgs/${org.id}/connectors`} className="underline-offset-2 hover:underline">
              {org.name}
            </Link>
          )}
        </CardTitle>
        <CardDescription>
          <span className="font-mono">{org.slug}</span> · your role: {org.role} · {plural(org.connectorCount, "connector")}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <h3 className="mb-2 text-sm font-medium text-zinc-700 dark:text-zinc-300">Workspaces</h3>
        {org.workspaces.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {org.role === "member"
              ? "You are not a member of any workspace here yet. Ask an org admin to add you."
              : (
                <>
                  No workspaces yet.{" "}
                  <Link href={`/orgs/${org.id}/workspaces#new-workspace`} className="underline">
                    Create one
                  </Link>
                  .
                </>
              )}
          </p>
        ) : (
          <ul className="divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
            {org.workspaces.map((workspace) => (
              <li key={workspace.id} className="flex items-center justify-between gap-4 px-3 py-2 text-sm">
                <span>
                  <Link href={`/w/${workspace.id}`} className="font-medium underline-offset-2 hover:underline">
                    {workspace.name}
                  </Link>{" "}
                  <span className="font-mono text-zinc-500 dark:text-zinc-400">{workspace.slug}</span>
                </span>
                <span className="text-zinc-600 dark:text-zinc-400">{plural(workspace.serverCount, "MCP server")}</span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
