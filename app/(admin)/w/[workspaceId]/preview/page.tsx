import type { Metadata } from "next";
import Link from "next/link";
import { Eye } from "lucide-react";
import { PageHeader } from "@/components/ui/page-header";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import { Alert } from "@/components/ui/alert";
import { MarkdownPreview } from "@/components/editors/markdown-preview";
import { orNotFound, requestBaseUrl, requireWorkspace } from "@/app/(admin)/_lib/context";
import { listServers } from "@/lib/servers/servers";
import { listWorkspaceMembers } from "@/lib/workspaces/members";
import { listRoles } from "@/lib/roles/roles";
import { type CallerPreview, type PreviewSubject, previewCaller } from "@/lib/mcp/preview-caller";

export const metadata: Metadata = { title: "Preview as a caller" };

type Props = { params: Promise<{ workspaceId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

function parseSubject(value: string | undefined): PreviewSubject | null {
  const match = /^(member|role):(.+)$/.exec(value ?? "");
  if (!match) return null;
  return match[1] === "member" ? { kind: "member", userId: match[2] } : { kind: "role", roleId: match[2] };
}

/** Choose a server and a member (or a role); see what /mcp/<serverId> would give them. */
export default async function PreviewPage({ params, searchParams }: Props) {
  const { workspace, org, caller } = await requireWorkspace((await params).workspaceId, { admin: true });
  const query = await searchParams;
  const [servers, members, roles] = await Promise.all([
    listServers(caller, workspace.id, { limit: 200 }, await requestBaseUrl()),
    listWorkspaceMembers(caller, workspace.id, { limit: 200 }),
    listRoles(caller, org.id, { limit: 200 }),
  ]);
  const serverId = first(query.server) ?? servers.items[0]?.id;
  const as = first(query.as);
  const subject = parseSubject(as);
  const preview = serverId && subject ? await orNotFound(previewCaller(caller, serverId, subject)) : null;
  if (servers.items.length === 0) {
    return (
      <div className="mx-auto grid max-w-5xl gap-6">
        <PageHeader title="Preview as a caller" />
        <EmptyState icon={Eye} title="No MCP servers to preview" action={<Button asChild><Link href={`/w/${workspace.id}/servers`}>Create a server</Link></Button>}>
          Create an MCP server in this workspace first.
        </EmptyState>
      </div>
    );
  }
  return (
    <div className="mx-auto grid max-w-5xl gap-6">
      <PageHeader
        title="Preview as a caller"
        description="Exactly the tools, composed instructions and resources a caller would get, computed by the same functions the MCP endpoint uses. Nothing is called."
      />
      <form method="get" className="flex flex-wrap items-end gap-3 rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900">
        <div className="grid min-w-56 flex-1 gap-1.5">
          <Label htmlFor="preview-server">MCP server</Label>
          <Select id="preview-server" name="server" defaultValue={serverId}>
            {servers.items.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </Select>
        </div>
        <div className="grid min-w-56 flex-1 gap-1.5">
          <Label htmlFor="preview-as">As</Label>
          <Select id="preview-as" name="as" defaultValue={as ?? ""} required>
            <option value="" disabled>
              Choose a member or a role…
            </option>
            <optgroup label="Workspace members">
              {members.items.map((m) => (
                <option key={m.userId} value={`member:${m.userId}`}>
                  {m.name ? `${m.name} (${m.email})` : m.email}
                </option>
              ))}
            </optgroup>
            <optgroup label="Any member with the MCP role">
              {roles.items.map((r) => (
                <option key={r.id} value={`role:${r.id}`}>
                  {r.name}
                </option>
              ))}
            </optgroup>
          </Select>
        </div>
        <Button type="submit">Preview</Button>
      </form>
      {!subject && <p className="text-sm text-zinc-600 dark:text-zinc-400">Choose whom to preview as.</p>}
      {preview && <PreviewResult preview={preview} />}
    </div>
  );
}

function PreviewResult({ preview }: { preview: CallerPreview }) {
  if (!preview.exists) {
    return <Alert tone="info">This server does not exist for that caller: the endpoint answers 404, as for an unknown server (they are not in this workspace or organization).</Alert>;
  }
  return (
    <div className="grid gap-6" aria-live="polite">
      <Card aria-labelledby="preview-tools">
        <CardHeader>
          <CardTitle id="preview-tools">Tools ({preview.tools.length})</CardTitle>
          {preview.hiddenConnectors.length > 0 && (
            <CardDescription>Assigned but not usable by this caller: {preview.hiddenConnectors.map((c) => c.name).join(", ")}.</CardDescription>
          )}
        </CardHeader>
        <CardContent>
          {preview.tools.length === 0 ? (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">No tools: this caller sees an empty tool list.</p>
          ) : (
            <ul className="grid gap-2">
              {preview.tools.map((t) => (
                <li key={t.name} className="flex flex-wrap items-baseline gap-2 text-sm">
                  <span className="font-mono font-medium">{t.name}</span>
                  <Badge>{t.connectorName}</Badge>
                  {t.description && <span className="text-zinc-600 dark:text-zinc-400">{t.description}</span>}
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      <Card aria-labelledby="preview-instructions">
        <CardHeader>
          <CardTitle id="preview-instructions">Composed instructions</CardTitle>
          <CardDescription>Sent at initialize and published as the server&apos;s instructions resource.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-3">
          <MarkdownPreview source={preview.instructions} emptyText="Empty: this caller gets no instructions." />
          {preview.instructions && (
            <details className="text-sm">
              <summary className="cursor-pointer">Raw text</summary>
              <pre tabIndex={0} className="mt-2 max-h-96 overflow-auto rounded-md bg-zinc-50 p-3 font-mono text-xs whitespace-pre-wrap dark:bg-zinc-950">
                {preview.instructions}
              </pre>
            </details>
          )}
        </CardContent>
      </Card>
      <Card aria-labelledby="preview-resources">
        <CardHeader>
          <CardTitle id="preview-resources">Resources ({preview.resources.length})</CardTitle>
        </CardHeader>
        <CardContent>
          {preview.resources.length === 0 ? (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">No resources.</p>
          ) : (
            <ul className="grid gap-2 text-sm">
              {preview.resources.map((r) => (
                <li key={r.uri} className="grid gap-0.5">
                  <span className="flex flex-wrap items-center gap-2">
                    <span className="font-medium">{r.name}</span>
                    <Badge>{r.mimeType}</Badge>
                  </span>
                  <code className="font-mono text-xs break-all text-zinc-600 dark:text-zinc-400">{r.uri}</code>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
