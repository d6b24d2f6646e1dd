import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeApiKey } from "@/lib/api-keys/api-keys";
import { INSTANCE_CALLER } from "@/lib/auth/caller";
import { updateRole } from "@/lib/roles/roles";
import { UpdateRoleBody } from "@/lib/roles/schemas";
import { fetchRetrying503, startAppInstance, type AppInstance, warmUp } from "@/tests/helpers/app-instance";
import { assignMcpRole, createHttpConnector, createMcpRole, createMcpServer, createTenant, INSTANCE_KEY, type Tenant } from "@/tests/helpers/factories";
import { parseBody } from "@/tests/helpers/mcp-clients";

/**
 * Issue 11: what a class of callers sees is computed once per configuration version and API
 * keys are resolved once — and still every change is seen on the very next request, on every
 * instance. The two instances here share PostgreSQL and nothing else (no Redis, so no change
 * announcement ever reaches them): only the version check can make them notice.
 */

let a: AppInstance;
let b: AppInstance;
const LIST = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };

beforeAll(async () => {
  [a, b] = await Promise.all([startAppInstance(), startAppInstance()]);
  // The MCP route's modules, loaded before any test's 30 s start (an unknown server: 404).
  await warmUp([a, b], "/mcp/warm-up", { method: "POST", headers: { ...HEADERS, authorization: `Bearer ${INSTANCE_KEY}` }, body: JSON.stringify(LIST) });
}, 240_000);
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

/** A 503 ("retry shortly": no database connection within its timeout, on a loaded machine) is sent again, as a client would. */
async function post(instance: AppInstance, serverId: string, token: string, message: unknown = LIST) {
  const res = await fetchRetrying503(instance, `/mcp/${serverId}`, { method: "POST", headers: { ...HEADERS, authorization: `Bearer ${token}` }, body: JSON.stringify(message) });
  return { status: res.status, body: res.status === 200 ? parseBody(await res.text(), res.headers.get("content-type")) : null };
}

async function toolNames(instance: AppInstance, serverId: string, token: string): Promise<string[]> {
  const res = await post(instance, serverId, token);
  expect(res.status).toBe(200);
  return (res.body.result.tools as { name: string }[]).map((t) => t.name);
}

/** A server over CRM (get_customer, list_customers) and Billing (list_invoices), whitelists on. */
async function scenario(): Promise<{ t: Tenant; crm: string; billing: string; serverId: string }> {
  const t = await createTenant({ toolWhitelistsEnabled: true });
  const crm = await createHttpConnector(t, "CRM", ["get_customer", "list_customers"]);
  const billing = await createHttpConnector(t, "Billing", ["list_invoices"]);
  return { t, crm, billing, serverId: await createMcpServer(t, [crm, billing]) };
}

// A bound, not a wait: each test answers in about a second on a quiet machine and in 15–30 s at load 19.
describe("MCP caches follow every change on the next request, on every instance", { timeout: 120_000 }, () => {
  it("a key revoked through one instance is refused on its next request on the other", async () => {
    const { t, serverId } = await scenario();
    // Both instances have resolved the key and cached what it sees.
    for (const instance of [a, b, a, b]) expect((await post(instance, serverId, t.admin.token)).status).toBe(200);
    await revokeApiKey(INSTANCE_CALLER, t.admin.apiKeyId);
    expect((await post(b, serverId, t.admin.token)).status).toBe(401);
    expect((await post(a, serverId, t.admin.token)).status).toBe(401);
  });

  it("a role's new whitelist is seen on the next request on both instances", async () => {
    const { t, crm, billing, serverId } = await scenario();
    const role = await createMcpRole(t, [[crm, "get_customer"]]);
    await assignMcpRole(t, t.member.user.id, role);
    expect(await toolNames(a, serverId, t.member.token)).toEqual(["get_customer"]);
    expect(await toolNames(b, serverId, t.member.token)).toEqual(["get_customer"]);
    await updateRole(INSTANCE_CALLER, role, UpdateRoleBody.parse({ tools: [{ connectorId: billing, tool: "list_invoices" }] }));
    expect(await toolNames(b, serverId, t.member.token)).toEqual(["list_invoices"]);
    expect(await toolNames(a, serverId, t.member.token)).toEqual(["list_invoices"]);
  });

  it("taking a member's role away (whitelists on: fail closed) empties their list on the next request", async () => {
    const { t, crm, serverId } = await scenario();
    await assignMcpRole(t, t.member.user.id, await createMcpRole(t, [[crm, "list_customers"]]));
    expect(await toolNames(b, serverId, t.member.token)).toEqual(["list_customers"]);
    await assignMcpRole(t, t.member.user.id, null);
    expect(await toolNames(b, serverId, t.member.token)).toEqual([]);
  });

  it("callers of different classes on one server never see each other's surface, however they interleave", async () => {
    const { t, crm, billing, serverId } = await scenario();
    await assignMcpRole(t, t.member.user.id, await createMcpRole(t, [[billing, "list_invoices"]]));
    const expected: [string, string[]][] = [
      [t.admin.token, ["get_customer", "list_customers", "list_invoices"]],
      [t.member.token, ["list_invoices"]],
      [t.owner.token, ["get_customer", "list_customers", "list_invoices"]],
    ];
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(expected.map(([token]) => toolNames(a, serverId, token)));
      expect(answers).toEqual(expected.map(([, names]) => names));
    }
    // A second role with the same tools is its own class, and stays right when the first changes.
    const other = await createMcpRole(t, [[billing, "list_invoices"]]);
    await updateRole(INSTANCE_CALLER, other, UpdateRoleBody.parse({ tools: [{ connectorId: crm, tool: "get_customer" }] }));
    expect(await toolNames(a, serverId, t.member.token)).toEqual(["list_invoices"]);
  });
});
