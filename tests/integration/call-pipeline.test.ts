import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { flushUsage } from "@/lib/usage/flush-usage";
import { api } from "@/tests/helpers/api";
import { createTenant, type Tenant } from "@/tests/helpers/factories";
import { connectV1 } from "@/tests/helpers/mcp-clients";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";
import { type FixtureServer, startFixtureServer } from "@/tests/fixtures/conformance-upstream/start-fixture-server";
import { PNG } from "@/tests/fixtures/conformance-upstream/register-tools";

/**
 * Issue 22 point 1: every call in flight goes through one pipeline — the audit, usage and
 * metrics of tools/call, prompts/get and an upstream's resources/read are the same steps. So
 * the organization's audit detail setting governs prompts/get as it governs tools/call; an
 * upstream resource read is audited with its URI and size and never its content; prompts and
 * resource reads count as usage. A real `mcp` connector (the conformance fixture, SDK v2) behind
 * the real route handlers, read back through the owner's audit API and the usage table.
 */

let app: RouteServer;
let upstream: FixtureServer;
beforeAll(async () => {
  [app, upstream] = await Promise.all([startRouteServer(), startFixtureServer()]);
}, 120_000);
afterAll(async () => {
  await Promise.all([app.close(), upstream.close()]);
});

/** The member's text the prompt echoes back: in the log only when the setting says so. */
const SECRET = "MEMBER-TEXT-4b7e";
const RESOURCE_TEXT = "This is the content of the static text resource.";

async function scenario() {
  const t = await createTenant();
  const connector = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { name: "Everything", type: "mcp", config: { url: upstream.url } });
  expect(connector.status, connector.text).toBe(201);
  const server = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Gateway", connectorIds: [connector.body.id] });
  expect(server.status, server.text).toBe(201);
  return { t, connectorId: connector.body.id as string, serverId: server.body.id as string, url: `${app.origin}/mcp/${server.body.id}` };
}

async function setDetail(t: Tenant, toolAuditDetail: string) {
  const res = await api(t.owner.token).patch(`/api/v1/orgs/${t.org.id}`, { toolAuditDetail });
  expect(res.status, res.text).toBe(200);
}

async function auditOf(t: Tenant, action: string) {
  const res = await api(t.owner.token).get(`/api/v1/orgs/${t.org.id}/audit?action=${action}&limit=100`);
  expect(res.status, res.text).toBe(200);
  return res.body.items as Array<{ action: string; data: Record<string, any>; toolCall: { tool: string | null; outcome: string | null } | null }>;
}

async function getPrompt(url: string, t: Tenant) {
  const client = await connectV1(url, t.member.token);
  try {
    const got = await client.client.getPrompt({ name: "test_prompt_with_arguments", arguments: { arg1: SECRET, arg2: "b" } });
    expect(got.messages[0].content).toEqual({ type: "text", text: `Prompt with arguments: arg1='${SECRET}', arg2='b'` });
  } finally {
    await client.close();
  }
}

describe("prompts/get follows the organization's toolAuditDetail, as tools/call does", () => {
  it("metadata (the default): sizes and sha-256 of the arguments and the result, neither kept", async () => {
    const { t, url } = await scenario();
    await getPrompt(url, t);
    const [event] = await auditOf(t, "prompt.get");
    expect(event.data).toMatchObject({
      prompt: "test_prompt_with_arguments",
      detail: "metadata",
      status: "finished",
      outcome: "ok",
      argumentsSize: expect.any(Number),
      argumentsSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      resultSize: expect.any(Number),
      resultSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(event.data).not.toHaveProperty("arguments");
    expect(event.data).not.toHaveProperty("result");
    expect(JSON.stringify(event)).not.toContain(SECRET);
    expect(event.toolCall).toMatchObject({ tool: "test_prompt_with_arguments", outcome: "ok" });
  });

  it("`arguments` keeps what the member sent and not the prompt; `arguments_and_results` keeps both", async () => {
    const { t, url } = await scenario();
    await setDetail(t, "arguments");
    await getPrompt(url, t);
    const [withArgs] = await auditOf(t, "prompt.get");
    expect(withArgs.data).toMatchObject({ detail: "arguments", arguments: { arg1: SECRET, arg2: "b" } });
    expect(withArgs.data).not.toHaveProperty("result");

    await setDetail(t, "arguments_and_results");
    await getPrompt(url, t);
    const [both] = await auditOf(t, "prompt.get");
    expect(both.data).toMatchObject({ detail: "arguments_and_results", arguments: { arg1: SECRET, arg2: "b" } });
    expect(both.data.result.messages[0].content.text).toBe(`Prompt with arguments: arg1='${SECRET}', arg2='b'`);
  });
});

describe("an upstream's resources/read is audited with its URI and size, never its content", () => {
  it("text and blob alike, even when the organization keeps tool results", async () => {
    const { t, url, connectorId, serverId } = await scenario();
    await setDetail(t, "arguments_and_results");
    const client = await connectV1(url, t.member.token);
    try {
      expect((await client.client.readResource({ uri: "test://static-text" })).contents[0]).toMatchObject({ text: RESOURCE_TEXT });
      expect((await client.client.readResource({ uri: "test://static-binary" })).contents[0]).toMatchObject({ blob: PNG });
    } finally {
      await client.close();
    }
    const events = await auditOf(t, "resource.read");
    expect(events.map((e) => e.data.uri).sort()).toEqual(["test://static-binary", "test://static-text"]);
    const text = events.find((e) => e.data.uri === "test://static-text")!;
    expect(text.data).toMatchObject({ serverId, connectorId, status: "finished", outcome: "ok", size: Buffer.byteLength(RESOURCE_TEXT) });
    const blob = events.find((e) => e.data.uri === "test://static-binary")!;
    expect(blob.data.size).toBe(Buffer.from(PNG, "base64").length);
    const log = JSON.stringify(events);
    expect(log).not.toContain(RESOURCE_TEXT);
    expect(log).not.toContain(PNG);
    expect(text.toolCall).toMatchObject({ tool: "test://static-text", outcome: "ok" });
  });
});

describe("usage counts every kind of call in flight", () => {
  it("a prompt and a resource read are rows of the usage table beside tool calls", async () => {
    const { t, url, connectorId } = await scenario();
    const client = await connectV1(url, t.member.token);
    try {
      await client.client.callTool({ name: "test_simple_text", arguments: {} });
      await client.client.getPrompt({ name: "test_simple_prompt" });
      await client.client.getPrompt({ name: "test_simple_prompt" });
      await client.client.readResource({ uri: "test://static-text" });
    } finally {
      await client.close();
    }
    await flushUsage();
    const rows = await db().usageBucket.findMany({ where: { orgId: t.org.id, connectorId }, select: { tool: true, calls: true, errors: true } });
    expect(rows.sort((a, b) => a.tool.localeCompare(b.tool))).toEqual([
      { tool: "prompts/get test_simple_prompt", calls: 2, errors: 0 },
      { tool: "resources/read", calls: 1, errors: 0 },
      { tool: "test_simple_text", calls: 1, errors: 0 },
    ]);
  });
});
