import Link from "next/link";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { OverviewOrg } from "@/lib/shell/overview";

interface Step {
  done: boolean;
  title: string;
  detail: string;
  href: string;
}

/** The path from an empty instance to a working MCP endpoint, ticked off as it happens. */
function stepsFor(orgs: OverviewOrg[]): Step[] {
  const hasConnector = orgs.some((org) => org.connectorCount > 0);
  const hasServer = orgs.some((org) => org.workspaces.some((workspace) => workspace.serverCount > 0));
  return [
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
    {
      done: false,
      title: "Connect an MCP client",
      detail: "Create an API key and give your client the server's /mcp/<serverId> URL.",
      href: "/api-keys",
    },
  ];
}

export function NextSteps({ orgs }: { orgs: OverviewOrg[] }) {
  return (
    <Card aria-labelledby="next-steps">
      <CardHeader>
        <CardTitle id="next-steps">Next steps</CardTitle>
        <CardDescription>From an empty instance to a governed MCP endpoint.</CardDescription>
      </CardHeader>
      <CardContent>
        <ol className="grid gap-3">
          {stepsFor(orgs).map((step, index) => (
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
