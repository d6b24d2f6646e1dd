import { Button } from "@/components/ui/button";
import type { ConsentOffer, OfferedWorkspace } from "@/lib/oauth/consent-choice";

/**
 * The consent page's choices, plain HTML forms (they work before any script has loaded): for
 * one server, Allow or Deny; for the shared endpoint, one form per workspace with its servers
 * to tick (all ticked to start with), so a choice never mixes two workspaces.
 */

function Hidden({ oauthQuery }: { oauthQuery: string }) {
  return <input type="hidden" name="oauth_query" value={oauthQuery} />;
}

function WorkspaceChoice({ action, oauthQuery, workspace, showName }: { action: string; oauthQuery: string; workspace: OfferedWorkspace; showName: boolean }) {
  if (workspace.servers.length === 0) return null;
  return (
    <form method="post" action={action} className="mb-4 rounded border border-zinc-200 p-3 dark:border-zinc-800">
      <Hidden oauthQuery={oauthQuery} />
      <input type="hidden" name="workspace" value={workspace.id} />
      <fieldset>
        <legend className="mb-2 text-sm font-medium">{showName ? `${workspace.orgName} / ${workspace.name}: the servers it may use` : "The servers it may use"}</legend>
        {workspace.servers.map((server) => (
          <label key={server.id} className="flex items-center gap-2 py-1 text-sm">
            <input type="checkbox" name="server" value={server.id} defaultChecked className="size-4 accent-zinc-900 dark:accent-sky-400" />
            {server.name}
          </label>
        ))}
      </fieldset>
      <Button type="submit" name="decision" value="allow" className="mt-2">
        {showName ? `Allow in ${workspace.name}` : "Allow"}
      </Button>
    </form>
  );
}

export function ConsentForm({ action, oauthQuery, offer }: { action: string; oauthQuery: string; offer: ConsentOffer }) {
  const deny = (
    <form method="post" action={action}>
      <Hidden oauthQuery={oauthQuery} />
      <Button type="submit" name="decision" value="deny" variant="outline">Deny</Button>
    </form>
  );
  if (offer.kind === "server") {
    return (
      <>
        <p className="mb-3 text-sm">
          It may use the MCP server <strong>{offer.server.name}</strong> ({offer.workspace.orgName} / {offer.workspace.name}), as an API key of yours pinned to it would.
        </p>
        <div className="flex gap-2">
          <form method="post" action={action}>
            <Hidden oauthQuery={oauthQuery} />
            <Button type="submit" name="decision" value="allow">Allow</Button>
          </form>
          {deny}
        </div>
      </>
    );
  }
  const usable = offer.workspaces.filter((w) => w.servers.length > 0);
  return (
    <>
      {usable.length === 0 && <p className="mb-3 text-sm">You have no MCP server it could use yet.</p>}
      {usable.map((workspace) => (
        <WorkspaceChoice key={workspace.id} action={action} oauthQuery={oauthQuery} workspace={workspace} showName={usable.length > 1} />
      ))}
      {deny}
    </>
  );
}
