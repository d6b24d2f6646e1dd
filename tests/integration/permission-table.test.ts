import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INSTANCE_CALLER } from "@/lib/auth/caller";
import { previewCaller } from "@/lib/mcp/preview-caller";
import { ACTIONS, type Action, CREDENTIAL_KINDS, type CredentialKind, kindAllows } from "@/lib/permissions/table";
import { createApiKeyFor, createHttpConnector, createMcpServer, createTenant, INSTANCE_KEY, makeFile, makeMember, type Tenant } from "@/tests/helpers/factories";
import type { RouteServer } from "@/tests/helpers/route-server";
import { mcpRpc, publicClient, sessionCookieFor, startOauthSite, stopOauthSite, tokensFor, type OauthSite } from "@/tests/helpers/oauth-flow";

/**
 * The permission table (lib/permissions/table.ts) against the real product: for every action and
 * every kind of credential, one real request over HTTP (the admin API, or an MCP endpoint) that a
 * credential of that kind either gets done (2xx) or is refused (401, 403 or 404) — exactly as the
 * table says. A new action without a probe here fails the first test.
 */

let app: RouteServer;
let site: OauthSite;

interface World {
  t: Tenant;
  server: string;
  /** The server's connector (organization-wide). */
  connector: string;
  /** A member of the org and workspace who is none of the callers (the "someone else" of keys.others). */
  other: string;
  seq: number;
}

/** How a kind of credential is presented: a bearer, or a signed-in browser of a user. */
type As = { bearer: string } | { cookie: string; userId: string };

async function call(as: As, method: string, path: string, body?: unknown): Promise<number> {
  const headers: Record<string, string> = body === undefined ? {} : { "content-type": "application/json" };
  if ("bearer" in as) headers.authorization = `Bearer ${as.bearer}`;
  else Object.assign(headers, { cookie: as.cookie, origin: app.origin, "sec-fetch-site": "same-origin" });
  const res = await fetch(`${app.origin}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  await res.arrayBuffer();
  return res.status;
}

async function toolCount(w: World, as: As): Promise<number | null> {
  if ("bearer" in as) {
    const { status, message } = await mcpRpc(app.origin, `/mcp/${w.server}`, as.bearer, "tools/list");
    return status === 200 ? (message.result.tools as unknown[]).length : null;
  }
  // MCP takes no browser session; what a person's view holds is what the console's preview shows.
  const preview = await previewCaller(INSTANCE_CALLER, w.server, { kind: "member", userId: as.userId });
  return preview.exists ? preview.tools.length : null;
}

/** One real request per action: its status. */
const PROBES: Record<Action, (w: World, as: As) => Promise<number>> = {
  "org.read": (w, as) => call(as, "GET", `/api/v1/orgs/${w.t.org.id}`),
  "org.update": (w, as) => call(as, "PATCH", `/api/v1/orgs/${w.t.org.id}`, { name: `Org ${++w.seq}` }),
  "org.owner_settings": (w, as) => call(as, "PATCH", `/api/v1/orgs/${w.t.org.id}`, { auditRetentionDays: 30 + ++w.seq }),
  "org.members.read": (w, as) => call(as, "GET", `/api/v1/orgs/${w.t.org.id}/members`),
  "org.members.manage": (w, as) => call(as, "PATCH", `/api/v1/orgs/${w.t.org.id}/members/${w.other}`, { role: "member" }),
  "owners.manage": async (w, as) => {
    const someone = await makeMember({ orgId: w.t.org.id }, { role: "member", label: "to-promote", workspace: false });
    return call(as, "PATCH", `/api/v1/orgs/${w.t.org.id}/members/${someone.id}`, { role: "owner" });
  },
  "workspace.manage": (w, as) => call(as, "PATCH", `/api/v1/workspaces/${w.t.workspace.id}`, { name: `Main ${++w.seq}` }),
  "workspace.members.read": (w, as) => call(as, "GET", `/api/v1/workspaces/${w.t.workspace.id}/members`),
  "workspace.members.manage": (w, as) => call(as, "PATCH", `/api/v1/workspaces/${w.t.workspace.id}/members/${w.other}`, { mcpRoleId: null }),
  "connectors.manage": (w, as) => call(as, "PATCH", `/api/v1/connectors/${w.connector}`, { instructions: `Use it well ${++w.seq}` }),
  "roles.manage": (w, as) => call(as, "GET", `/api/v1/orgs/${w.t.org.id}/roles`),
  "skills.manage": (w, as) => call(as, "GET", `/api/v1/workspaces/${w.t.workspace.id}/skills`),
  "servers.read": (w, as) => call(as, "GET", `/api/v1/servers/${w.server}`),
  "servers.manage": (w, as) => call(as, "PATCH", `/api/v1/servers/${w.server}`, { name: `Support ${++w.seq}` }),
  "servers.create": (w, as) => call(as, "POST", `/api/v1/workspaces/${w.t.workspace.id}/servers`, { name: `New ${++w.seq}` }),
  "keys.own": (w, as) => call(as, "GET", "/api/v1/me/api-keys"),
  "keys.others": (w, as) => call(as, "POST", `/api/v1/workspaces/${w.t.workspace.id}/api-keys`, { name: `for someone ${++w.seq}`, userId: w.other }),
  "files.delete_shared": async (w, as) => {
    const shared = await makeFile(w.t, { ownerId: w.other, visibility: "workspace" });
    return call(as, "DELETE", `/api/v1/files/${shared.id}`);
  },
  "usage.read": (w, as) => call(as, "GET", `/api/v1/orgs/${w.t.org.id}/usage`),
  "audit.read": (w, as) => call(as, "GET", `/api/v1/orgs/${w.t.org.id}/audit`),
  "connections.own": (w, as) => call(as, "GET", "/api/v1/me/connections"),
  "connections.manage": (w, as) => call(as, "GET", `/api/v1/connectors/${w.connector}/connections`),
  "mcp.all_tools": async (w, as) => ((await toolCount(w, as)) ?? 0) > 0 ? 200 : 403,
  "mcp.use": async (w, as) => {
    if (!("bearer" in as)) return call(as, "POST", `/mcp/${w.server}`, { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
    return (await mcpRpc(app.origin, `/mcp/${w.server}`, as.bearer, "tools/list")).status;
  },
};

beforeAll(async () => void ({ app, site } = await startOauthSite()));
afterAll(() => stopOauthSite(app));

/** A tenant whose workspace uses tool whitelists (a member without an MCP role sees no tool), and every kind of credential in it. */
async function world(): Promise<{ w: World; credentials: Record<CredentialKind, As> }> {
  const t = await createTenant({ toolWhitelistsEnabled: true });
  const connector = await createHttpConnector(t, "CRM", ["get_customer"]);
  const server = await createMcpServer(t, [connector]);
  const other = await makeMember(t, { role: "member", label: "other" });
  const pinned = await createApiKeyFor(t.admin.user, { id: t.workspace.id, orgId: t.org.id }, { serverId: server });
  const client = await publicClient(site);
  const oauth = await tokensFor(site, { cookie: await sessionCookieFor(t.admin.user.id), clientId: client.client_id, resource: `${app.origin}/mcp/${server}`, choice: { server: [server] } });
  const browser = async (a: Tenant["owner"]): Promise<As> => ({ cookie: await sessionCookieFor(a.user.id), userId: a.user.id });
  const credentials: Record<CredentialKind, As> = {
    owner: await browser(t.owner),
    admin: await browser(t.admin),
    member: await browser(t.member),
    owner_key: { bearer: t.owner.token },
    admin_key: { bearer: t.admin.token },
    member_key: { bearer: t.member.token },
    pinned_key: { bearer: pinned.token },
    instance: { bearer: INSTANCE_KEY },
    oauth_token: { bearer: oauth.access_token },
  };
  return { w: { t, server, connector, other: other.id, seq: 0 }, credentials };
}

describe("the permission table, against the real API", () => {
  it("every action has a probe, and every kind of credential a column", () => {
    expect(Object.keys(PROBES).sort()).toEqual([...ACTIONS].sort());
    expect(CREDENTIAL_KINDS).toEqual(["owner", "admin", "member", "owner_key", "admin_key", "member_key", "pinned_key", "instance", "oauth_token"]);
  });

  it("each kind of credential gets done exactly what its column allows, and is refused (401/403/404) the rest", async () => {
    const { w, credentials } = await world();
    const mismatches: string[] = [];
    for (const action of ACTIONS) {
      for (const kind of CREDENTIAL_KINDS) {
        const status = await PROBES[action](w, credentials[kind]);
        const allowed = kindAllows(kind, action);
        const ok = allowed ? status >= 200 && status < 300 : [401, 403, 404].includes(status);
        if (!ok) mismatches.push(`${action} × ${kind}: ${status} (table: ${allowed ? "allowed" : "refused"})`);
      }
    }
    expect(mismatches).toEqual([]);
  }, 300_000);
});
