import Link from "next/link";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { OverviewOrg } from "@/lib/shell/overview";

interface Step {
  done: boolean;
  title: string;
  detail: string;
  href: string;
}

/**
 * The path from an empty instance to a working MCP endpoint, ticked off as it happens. Only the
 * steps this person can take: adding connectors and servers is for org owners and admins;
 * connecting a client is for everyone, and is done once one of their keys has made a call.
 */
function stepsFor(orgs: OverviewOrg[], keyUsed: boolean): Step[] {
  const administers = orgs.some((org) => org.role !== "member");
  const hasConnector = orgs.some((org) => org.connectorCount > 0);
  const hasServer = orgs.some((org) => org.workspaces.some((workspace) => workspace.serverCount > 0));
  const adminSteps: Step[] = [
    {
      done: hasConnector,
      title: "Add a connector",
      detail: "Describe an HTTP API and its tools, or point at an upstream MCP server.",
      href: "/connectors",
    },
    {
      done: hasServer,
      title: "Create an MCP server",
      detail: "In a workspace, create a server and assign connectors to it.",
      href: "/servers",
    },
  ];
  return [
    ...(administers ? adminSteps : []),
    {
      done: keyUsed,
      title: "Connect an MCP client",
      detail: "On My MCP servers, copy a server's URL and client configuration, create an API key, and make a first call.",
      href: "/me/servers",
    },
  ];
}

export function NextSteps({ orgs, keyUsed }: { orgs: OverviewOrg[]; keyUsed: boolean }) {
  return (
    <Card aria-labelledby="next-steps">
      <CardHeader>
        <CardTitle id="next-steps">Next steps</CardTitle>
        <CardDescription>From an empty instance to a governed MCP endpoint in use.</CardDescription>
      </CardHeader>
      <CardContent>
        <ol className="grid gap-3">
          {stepsFor(orgs, keyUsed).map((step, index) => (
            <li key={step.title} className="flex gap-3 text-sm">
              <span
                aria-hidden
                className="grid size-6 shrink-0 place-items-center rounded-full border border-zinc-300 text-xs dark:border-zinc-700"
              >
                {step.done ? "✓" : index + 1}
              </span>
              <span>
                <Link href={step.href} className="font-medium underline-offset-2 hover:underline">
                  {step.title}
                </Link>
                {step.done && <span className="sr-only"> (done)</span>}
                <span className="block text-zinc-600 dark:text-zinc-400">{step.detail}</span>
              </span>
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}
