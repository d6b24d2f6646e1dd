import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Caller } from "@/lib/auth/caller";
import { NotFoundError } from "@/lib/errors";
import { previewCaller } from "@/lib/mcp/preview-caller";
import { tryTool } from "@/lib/mcp/try-tool";
import { api } from "@/tests/helpers/api";
import { createTenant, type Tenant } from "@/tests/helpers/factories";
import { type HttpApiStub, startHttpApi } from "@/tests/helpers/http-api-stub";

/** The admin UI's "Preview as a caller" and "Try a tool" (lib/mcp/preview-caller.ts, try-tool.ts). */

let upstream: HttpApiStub;
beforeAll(async () => {
  upstream = await startHttpApi();
  upstream.route("GET", "/customers/42", (_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"id":"42","name":"Ada"}'));
});
afterAll(() => upstream.close());

const asUser = (userId: string): Caller => ({ kind: "user", userId, apiKey: null });

/** A server with two connectors (CRM: 2 tools, Billing: 1), a role allowing only CRM's get_customer. */
async function setup(): Promise<{ t: Tenant; serverId: string; roleId: string; crmId: string }> {
  const t = await createTenant({ toolWhitelistsEnabled: true });
  const admin = api(t.admin.token);
  const tool = (name: string, path: string) => ({ name, request: { method: "GET", path }, inputSchema: { type: "object", properties: { id: { type: "string" } } } });
  const crm = await admin.post(`/api/v1/orgs/${t.org.id}/connectors`, {
    name: "CRM",
    type: "http",
    instructions: "CRM notes.",
    config: { baseUrl: upstream.origin },
    tools: [tool("get_customer", "/customers/{id}"), tool("delete_customer", "/customers/{id}/delete")],
  });
  const billing = await admin.post(`/api/v1/orgs/${t.org.id}/connectors`, {
    name: "Billing",
    type: "http",
    instructions: "Billing notes.",
    config: { baseUrl: upstream.origin },
    tools: [tool("get_invoice", "/invoices/{id}")],
  });
  const server = await admin.post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Support", instructions: "Be brief.", connectorIds: [crm.body.id, billing.body.id] });
  const role = await admin.post(`/api/v1/orgs/${t.org.id}/roles`, { name: "Reader", tools: [{ connectorId: crm.body.id, tool: "get_customer" }] });
  await admin.patch(`/api/v1/workspaces/${t.workspace.id}/members/${t.member.user.id}`, { mcpRoleId: role.body.id });
  return { t, serverId: server.body.id, roleId: role.body.id, crmId: crm.body.id };
}

describe("previewCaller", () => {
  it("a member with a role sees only the role's tools, and instructions of their connectors only", async () => {
    const { t, serverId } = await setup();
    const preview = await previewCaller(asUser(t.admin.user.id), serverId, { kind: "member", userId: t.member.user.id });
    if (!preview.exists) throw new Error("expected a preview");
    expect(preview.tools.map((tool) => tool.name)).toEqual(["get_customer"]);
    expect(preview.instructions).toContain("CRM notes.");
    expect(preview.instructions).not.toContain("Billing notes.");
    expect(preview.hiddenConnectors.map((c) => c.name)).toEqual(["Billing"]);
    expect(preview.resources.map((r) => r.uri)).toContain(`anythingmcp://server/${serverId}/instructions`);
  });

  it("previewing a role gives the same answer as a member holding it", async () => {
    const { t, serverId, roleId } = await setup();
    const byRole = await previewCaller(asUser(t.admin.user.id), serverId, { kind: "role", roleId });
    const byMember = await previewCaller(asUser(t.admin.user.id), serverId, { kind: "member", userId: t.member.user.id });
    expect(byRole).toEqual(byMember);
  });

  it("an admin sees every tool; someone outside the workspace gets 'does not exist'", async () => {
    const { t, serverId } = await setup();
    const asAdmin = await previewCaller(asUser(t.admin.user.id), serverId, { kind: "member", userId: t.owner.user.id });
    expect(asAdmin.exists && asAdmin.tools.map((tool) => tool.name)).toEqual(["get_customer", "delete_customer", "get_invoice"]);
    const other = await createTenant();
    expect(await previewCaller(asUser(t.admin.user.id), serverId, { kind: "member", userId: other.member.user.id })).toEqual({ exists: false });
  });

  it("is for the server's managers only: a member or another org's admin gets not found", async () => {
    const { t, serverId, roleId } = await setup();
    const other = await createTenant();
    await expect(previewCaller(asUser(t.member.user.id), serverId, { kind: "role", roleId })).rejects.toBeInstanceOf(NotFoundError);
    await expect(previewCaller(asUser(other.admin.user.id), serverId, { kind: "role", roleId })).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("tryTool", () => {
  it("calls the tool through the runtime against the real API and reports the result and duration", async () => {
    const { t, serverId } = await setup();
    const tried = await tryTool(asUser(t.admin.user.id), serverId, "get_customer", { id: "42" });
    expect(tried.result.isError).toBeFalsy();
    expect(JSON.stringify(tried.result.content)).toContain("Ada");
    expect(tried.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("invalid arguments come back as an isError result, not a thrown error", async () => {
    const { t, serverId } = await setup();
    const tried = await tryTool(asUser(t.admin.user.id), serverId, "get_customer", { id: 42 });
    expect(tried.result.isError).toBe(true);
  });

  it("unknown tools and non-managers get not found", async () => {
    const { t, serverId } = await setup();
    await expect(tryTool(asUser(t.admin.user.id), serverId, "nope", {})).rejects.toBeInstanceOf(NotFoundError);
    await expect(tryTool(asUser(t.member.user.id), serverId, "get_customer", { id: "42" })).rejects.toBeInstanceOf(NotFoundError);
  });
});
