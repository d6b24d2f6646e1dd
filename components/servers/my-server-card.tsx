import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { plural } from "@/components/ui/plural";
import { EndpointDetails } from "@/components/servers/endpoint-card";
import type { MyServer } from "@/lib/servers/my-servers";

const day = (d: Date) => <time dateTime={d.toISOString()}>{d.toISOString().slice(0, 10)}</time>;

/** One server a person can use: where it is, how to connect a client, the tools they get, their keys. */
export function MyServerCard({ server, oauth = false }: { server: MyServer; oauth?: boolean }) {
  const headingId = `server-${server.id}`;
  const keysHref = `/w/${server.workspace.id}/api-keys`;
  return (
    <Card aria-labelledby={headingId}>
      <CardHeader>
        <CardTitle id={headingId}>{server.name}</CardTitle>
        <CardDescription>
          {server.org.name} / {server.workspace.name} · {plural(server.tools.length, "tool")} for you
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <EndpointDetails url={server.url} serverName={server.name} id={`url-${server.id}`} oauth={oauth} />
        <section aria-labelledby={`${headingId}-keys`} className="grid gap-2">
          <h3 id={`${headingId}-keys`} className="text-sm font-semibold">
            Your keys for this server
          </h3>
          {server.keys.length === 0 ? (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">
              You have no key that opens this server yet.{" "}
              <Link href={keysHref} className="underline">
                Create an API key
              </Link>{" "}
              in {server.workspace.name}; it is shown once, then paste it in place of the placeholder above.
            </p>
          ) : (
            <ul className="grid gap-1 text-sm">
              {server.keys.map((key) => (
                <li key={key.id} className="flex flex-wrap items-center gap-2">
                  <span className="font-medium">{key.name}</span>
                  <code className="font-mono text-xs">{key.prefix}…</code>
                  {key.serverId && <Badge>only this server</Badge>}
                  <span className="text-xs text-zinc-600 dark:text-zinc-400">{key.lastUsedAt ? <>last used {day(key.lastUsedAt)}</> : "never used yet"}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section aria-labelledby={`${headingId}-tools`} className="grid gap-2">
          <h3 id={`${headingId}-tools`} className="text-sm font-semibold">
            Tools you get
          </h3>
          {server.tools.length === 0 ? (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">
              None yet: your MCP role in {server.workspace.name} allows none of this server&apos;s tools. Ask an admin of {server.org.name}.
            </p>
          ) : (
            <ul className="grid gap-1 text-sm">
              {server.tools.map((tool) => (
                <li key={tool.name}>
                  <code className="font-mono text-xs">{tool.name}</code> <span className="text-xs text-zinc-500 dark:text-zinc-400">({tool.connectorName})</span>
                  {tool.description && <span className="block text-zinc-600 dark:text-zinc-400">{tool.description.split("\n")[0]}</span>}
                </li>
              ))}
            </ul>
          )}
        </section>
      </CardContent>
    </Card>
  );
}
