import { randomBytes } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import type { HostResourcesContext } from "@/lib/host-resources";
import { handleHostResourcesList, handleHostResourcesRead, HostResourcesError } from "@/lib/host-resources";
import { createTenant, createWorkspace, makeConnector, makeWorkspaceMember, type Tenant, uniqueSuffix } from "@/tests/helpers/factories";
import { PNG_1X1, upload, useTempFilesDir } from "@/tests/helpers/files";

/**
 * Seed 000 (ai.nimblebrain/host-resources), host side: the two request handlers called
 * directly with real files, every error code with its exact `error.data`. Test names quote the
 * seed's sentences. (The wire — -32002 kept as -32002, 2025-era only — is the outbound
 * connection's, tested there.)
 */

beforeAll(() => {
  useTempFilesDir();
});
afterEach(() => {
  vi.unstubAllEnvs();
});

async function connectorOf(t: Tenant): Promise<string> {
  return (await makeConnector(t, { name: "Upstream", type: "mcp", config: { url: "http://127.0.0.1:1/mcp" } })).id;
}

async function ctxFor(t: Tenant, who: "owner" | "admin" | "member" | null, connectorId?: string): Promise<HostResourcesContext> {
  return { orgId: t.org.id, workspaceId: t.workspace.id, userId: who ? t[who].user.id : null, connectorId: connectorId ?? (await connectorOf(t)) };
}

async function file(t: Tenant, who: "owner" | "admin" | "member", name: string, opts: { bytes?: Buffer | string; visibility?: string; tags?: string[] } = {}) {
  const res = await upload(t[who].token, t.workspace.id, { bytes: opts.bytes ?? `content of ${name}`, name, tags: opts.tags, visibility: opts.visibility });
  expect(res.status).toBe(201);
  return res.body as { id: string; uri: string; name: string; mimeType: string; size: number };
}

/** The promise rejects with a HostResourcesError carrying exactly this numeric code and data. */
async function expectHostError(promise: Promise<unknown>, code: number, data: unknown): Promise<HostResourcesError> {
  const error = await promise.then(
    () => { throw new Error("expected the request to fail"); },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HostResourcesError);
  expect(error).toMatchObject({ code, data });
  expect((error as HostResourcesError).data).toEqual(data);
  return error as HostResourcesError;
}

describe("ai.nimblebrain/resources/read", () => {
  it("Read one resource. The params and result are exactly those of the specification's resources/read", async () => {
    const t = await createTenant();
    const csv = await file(t, "member", "q3.csv", { bytes: "region,revenue\nnorth,10\n" });
    const result = await handleHostResourcesRead(await ctxFor(t, "member"), { uri: csv.uri });
    expect(result).toEqual({ contents: [{ uri: csv.uri, mimeType: "text/csv", text: "region,revenue\nnorth,10\n" }] });
  });

  it("A text MIME type comes back as text. Anything else comes back base64-encoded in blob.", async () => {
    const t = await createTenant();
    const ctx = await ctxFor(t, "member");
    const png = await file(t, "member", "pixel.png", { bytes: PNG_1X1 });
    const json = await file(t, "member", "data.json", { bytes: '{"ok":true}' });
    const md = await file(t, "member", "notes.md", { bytes: "# Notes" });
    const latin1Csv = await file(t, "member", "ventes.csv", { bytes: Buffer.from("caf\xe9,1\n", "latin1") });

    const image = (await handleHostResourcesRead(ctx, { uri: png.uri })).contents[0];
    expect(image).toEqual({ uri: png.uri, mimeType: "image/png", blob: PNG_1X1.toString("base64") });
    expect(Buffer.from((image as { blob: string }).blob, "base64").equals(PNG_1X1)).toBe(true);
    expect((await handleHostResourcesRead(ctx, { uri: json.uri })).contents[0]).toEqual({ uri: json.uri, mimeType: "application/json", text: '{"ok":true}' });
    expect((await handleHostResourcesRead(ctx, { uri: md.uri })).contents[0]).toMatchObject({ mimeType: "text/markdown", text: "# Notes" });
    // A text type whose bytes are not valid UTF-8 cannot be `text`: it comes back as a blob.
    expect((await handleHostResourcesRead(ctx, { uri: latin1Csv.uri })).contents[0]).toEqual({
      uri: latin1Csv.uri, mimeType: "text/csv", blob: Buffer.from("caf\xe9,1\n", "latin1").toString("base64"),
    });
  });

  it("read.maxSize: the largest resource, in bytes (10 MiB), a read will return. A larger one fails with -32005 { uri, size, maxSize }", async () => {
    const t = await createTenant();
    const ctx = await ctxFor(t, "member");
    const exact = await file(t, "member", "exact.bin", { bytes: randomBytes(10_485_760) });
    const over = await file(t, "member", "over.bin", { bytes: randomBytes(10_485_761) });
    const ok = (await handleHostResourcesRead(ctx, { uri: exact.uri })).contents[0] as { blob: string };
    expect(Buffer.from(ok.blob, "base64").length).toBe(10_485_760);
    await expectHostError(handleHostResourcesRead(ctx, { uri: over.uri }), -32005, { uri: over.uri, size: 10_485_761, maxSize: 10_485_760 });
  });

  it("schemes: the URI schemes the host resolves. A URI outside this list fails with -32602 { uri, supported }", async () => {
    const t = await createTenant();
    const ctx = await ctxFor(t, "member");
    for (const uri of ["https://example.com/a.csv", "file:///etc/passwd", "anythingmcp://x", "fl_0123456789abcdef01234567"]) {
      await expectHostError(handleHostResourcesRead(ctx, { uri }), -32602, { uri, supported: ["files"] });
    }
  });

  it("a files: URI that names no file is not found: -32002 { uri }", async () => {
    const t = await createTenant();
    const ctx = await ctxFor(t, "member");
    for (const uri of ["files://nope", "files://", `files://fl_${"0".repeat(24)}`, `files://fl_${"0".repeat(24)}/../x`]) {
      await expectHostError(handleHostResourcesRead(ctx, { uri }), -32002, { uri });
    }
  });

  it("params without a string uri are invalid params: -32602 { receivedType }", async () => {
    const t = await createTenant();
    const ctx = await ctxFor(t, "member");
    await expectHostError(handleHostResourcesRead(ctx, { uri: 42 }), -32602, { receivedType: "number" });
    await expectHostError(handleHostResourcesRead(ctx, undefined), -32602, { receivedType: "undefined" });
  });
});

describe("Scope: which files a server can see", () => {
  it("A request resolves in the workspace the calling connection belongs to, for the user on whose behalf the tool is running", async () => {
    const t = await createTenant();
    const mine = await file(t, "member", "mine.txt");
    const shared = await file(t, "admin", "shared.txt", { visibility: "workspace" });
    const othersPrivate = await file(t, "admin", "admins-own.txt");
    const ctx = await ctxFor(t, "member");

    expect((await handleHostResourcesRead(ctx, { uri: mine.uri })).contents[0]).toMatchObject({ text: "content of mine.txt" });
    expect((await handleHostResourcesRead(ctx, { uri: shared.uri })).contents[0]).toMatchObject({ text: "content of shared.txt" });
    await expectHostError(handleHostResourcesRead(ctx, { uri: othersPrivate.uri }), -32002, { uri: othersPrivate.uri });
    // Private means private to its owner: not even an org owner's tools read it.
    await expectHostError(handleHostResourcesRead({ ...ctx, userId: t.owner.user.id }, { uri: mine.uri }), -32002, { uri: mine.uri });
  });

  it("The URI names a file, never a workspace: a server cannot reach another workspace's files by constructing a URI", async () => {
    const t = await createTenant();
    const otherOrg = await createTenant();
    const sharedHere = await file(t, "member", "here.txt", { visibility: "workspace" });
    const sharedElsewhere = await file(otherOrg, "member", "there.txt", { visibility: "workspace" });
    // Another workspace of the same organization, where the same user works too.
    const second = await createWorkspace(t.org.id);
    await makeWorkspaceMember({ orgId: t.org.id, workspaceId: second.id }, { id: t.member.user.id });
    const ctxSecond: HostResourcesContext = { ...(await ctxFor(t, "member")), workspaceId: second.id };

    await expectHostError(handleHostResourcesRead(ctxSecond, { uri: sharedHere.uri }), -32002, { uri: sharedHere.uri });
    await expectHostError(handleHostResourcesRead(await ctxFor(t, "member"), { uri: sharedElsewhere.uri }), -32002, { uri: sharedElsewhere.uri });
    expect((await handleHostResourcesList(ctxSecond, {})).resources).toEqual([]);
  });

  it("A file that does not exist, and a file that exists somewhere the caller cannot see, return the same -32002", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const ctx = await ctxFor(t, "member");
    const hidden = [
      (await file(t, "admin", "private.txt")).id,
      (await file(other, "member", "elsewhere.txt", { visibility: "workspace" })).id,
      `fl_${"a".repeat(24)}`,
    ];
    const errors = [];
    for (const id of hidden) errors.push(await expectHostError(handleHostResourcesRead(ctx, { uri: `files://${id}` }), -32002, { uri: `files://${id}` }));
    // Same message apart from the URI the server sent: reads cannot tell the cases apart.
    const messages = errors.map((e, i) => e.message.replace(hidden[i], "<id>"));
    expect(new Set(messages).size).toBe(1);
  });

  it("a connection with no user (the instance credential) sees the workspace's shared files only", async () => {
    const t = await createTenant();
    const shared = await file(t, "member", "shared.txt", { visibility: "workspace" });
    const privateOne = await file(t, "member", "private.txt");
    const ctx = await ctxFor(t, null);
    expect((await handleHostResourcesRead(ctx, { uri: shared.uri })).contents[0]).toMatchObject({ text: "content of shared.txt" });
    await expectHostError(handleHostResourcesRead(ctx, { uri: privateOne.uri }), -32002, { uri: privateOne.uri });
    expect((await handleHostResourcesList(ctx, {})).resources.map((r) => r.uri)).toEqual([shared.uri]);
  });

  it("a user who no longer works in the workspace sees nothing there", async () => {
    const t = await createTenant();
    const mine = await file(t, "member", "mine.txt");
    await db().workspaceMember.deleteMany({ where: { workspaceId: t.workspace.id, userId: t.member.user.id } });
    const ctx = await ctxFor(t, "member");
    await expectHostError(handleHostResourcesRead(ctx, { uri: mine.uri }), -32002, { uri: mine.uri });
    expect((await handleHostResourcesList(ctx, undefined)).resources).toEqual([]);
  });
});

describe("ai.nimblebrain/resources/list", () => {
  async function library(t: Tenant) {
    return {
      contract: await file(t, "member", "msa-2026.pdf", { bytes: "%PDF-1.4\n%%EOF\n", tags: ["contracts", "2026"] }),
      oldContract: await file(t, "member", "msa-2025.pdf", { bytes: "%PDF-1.4\n%%EOF\n", tags: ["contracts"] }),
      sheet: await file(t, "member", "q3.csv", { bytes: "a,b\n", tags: ["2026"], visibility: "workspace" }),
      othersPrivate: await file(t, "admin", "admin.pdf", { bytes: "%PDF-1.4\n%%EOF\n", tags: ["contracts", "2026"] }),
    };
  }

  it("List the resources the server can read. The whole list comes back in one response.", async () => {
    const t = await createTenant();
    const f = await library(t);
    const result = await handleHostResourcesList(await ctxFor(t, "member"), {});
    expect(Object.keys(result)).toEqual(["resources"]);
    expect(result.resources).toHaveLength(3);
    expect(result.resources).toEqual(expect.arrayContaining([
      { uri: f.contract.uri, name: "msa-2026.pdf", mimeType: "application/pdf", size: f.contract.size },
      { uri: f.oldContract.uri, name: "msa-2025.pdf", mimeType: "application/pdf", size: f.oldContract.size },
      { uri: f.sheet.uri, name: "q3.csv", mimeType: "text/csv", size: f.sheet.size },
    ]));
  });

  it("Filter mimeType: an exact MIME type. tags: files carrying every listed tag.", async () => {
    const t = await createTenant();
    const f = await library(t);
    const ctx = await ctxFor(t, "member");
    const uris = async (filter: unknown) => (await handleHostResourcesList(ctx, { _meta: { filter } })).resources.map((r) => r.uri).sort();

    expect(await uris({ mimeType: "application/pdf", tags: ["contracts"] })).toEqual([f.contract.uri, f.oldContract.uri].sort());
    expect(await uris({ mimeType: "application/pdf", tags: ["contracts", "2026"] })).toEqual([f.contract.uri]);
    expect(await uris({ tags: ["2026"] })).toEqual([f.contract.uri, f.sheet.uri].sort());
    expect(await uris({ mimeType: "application/pd" })).toEqual([]);
    expect(await uris({ mimeType: "text/csv" })).toEqual([f.sheet.uri]);
    expect(await uris({ scheme: "files" })).toHaveLength(3);
    expect(await uris({ tags: [] })).toHaveLength(3);
  });

  it("Filter scheme: only files is accepted. Any other value fails with -32602 { scheme, supported }", async () => {
    const t = await createTenant();
    const ctx = await ctxFor(t, "member");
    for (const scheme of ["https", "FILE", 7]) {
      await expectHostError(handleHostResourcesList(ctx, { _meta: { filter: { scheme } } }), -32602, { scheme, supported: ["files"] });
    }
  });

  it("Pagination is not supported, and a request that sends a cursor fails with -32602 { cursor }", async () => {
    const t = await createTenant();
    const ctx = await ctxFor(t, "member");
    await expectHostError(handleHostResourcesList(ctx, { cursor: "next-page" }), -32602, { cursor: "next-page" });
    await expectHostError(handleHostResourcesList(ctx, { cursor: "" }), -32602, { cursor: "" });
  });

  it("a list larger than HOST_RESOURCES_LIST_MAX fails with -32005 { maxResources } instead of an unbounded (or silently cut) answer; a filter narrows it (issue 23)", async () => {
    // A cap of 2 (default 5000) so three files pass it.
    vi.stubEnv("HOST_RESOURCES_LIST_MAX", "2");
    const t = await createTenant();
    const ctx = await ctxFor(t, "member");
    await file(t, "member", "a.txt", { tags: ["keep"] });
    await file(t, "member", "b.txt", { tags: ["keep"] });
    await file(t, "member", "c.txt");
    const error = await expectHostError(handleHostResourcesList(ctx, {}), -32005, { maxResources: 2 });
    expect(error.message).toContain("narrow the list with params._meta.filter");
    expect((await handleHostResourcesList(ctx, { _meta: { filter: { tags: ["keep"] } } })).resources.map((r) => r.name).sort()).toEqual(["a.txt", "b.txt"]);
  });

  it("tags must be an array: non-array tags fail with -32602 { receivedType }", async () => {
    const t = await createTenant();
    const ctx = await ctxFor(t, "member");
    await expectHostError(handleHostResourcesList(ctx, { _meta: { filter: { tags: "contracts" } } }), -32602, { receivedType: "string" });
    await expectHostError(handleHostResourcesList(ctx, { _meta: { filter: { tags: { 0: "contracts" } } } }), -32602, { receivedType: "object" });
    await expectHostError(handleHostResourcesList(ctx, { _meta: { filter: { tags: null } } }), -32602, { receivedType: "null" });
  });
});

describe("Rate limited: each server in each workspace has its own request budget (-32004 { retryAfterMs })", () => {
  it("past HOST_RESOURCES_RATE_LIMIT requests a (workspace, connector) pair gets -32004 with an honest retryAfterMs", async () => {
    // 3 a second (default 120 a minute): a burst passes it and the window ends within the test.
    vi.stubEnv("HOST_RESOURCES_RATE_LIMIT", "3");
    vi.stubEnv("HOST_RESOURCES_RATE_WINDOW_SEC", "1");
    const t = await createTenant();
    const shared = await file(t, "member", "s.txt", { visibility: "workspace" });
    const ctx = await ctxFor(t, "member");
    await handleHostResourcesList(ctx, {});
    await handleHostResourcesRead(ctx, { uri: shared.uri });
    await handleHostResourcesRead(ctx, { uri: shared.uri });

    const refused = await handleHostResourcesRead(ctx, { uri: shared.uri }).catch((e: HostResourcesError) => e);
    expect(refused).toBeInstanceOf(HostResourcesError);
    expect(refused).toMatchObject({ code: -32004 });
    const { retryAfterMs } = (refused as HostResourcesError).data as { retryAfterMs: number };
    expect(Object.keys((refused as HostResourcesError).data as object)).toEqual(["retryAfterMs"]);
    expect(retryAfterMs).toBeGreaterThan(0);
    expect(retryAfterMs).toBeLessThanOrEqual(1000);
    await expectHostError(handleHostResourcesList(ctx, {}), -32004, { retryAfterMs: expect.any(Number) });

    // Another server in the same workspace, and the same server in another workspace, have their own budgets.
    expect((await handleHostResourcesRead({ ...ctx, connectorId: await connectorOf(t) }, { uri: shared.uri })).contents).toHaveLength(1);
    const second = await createWorkspace(t.org.id);
    expect((await handleHostResourcesList({ ...ctx, workspaceId: second.id }, {})).resources).toEqual([]);

    // Honest: once retryAfterMs has passed, the budget is back.
    await new Promise((r) => setTimeout(r, retryAfterMs + 50));
    expect((await handleHostResourcesRead(ctx, { uri: shared.uri })).contents).toHaveLength(1);
  });
});

describe("every read and list is audited: who, which connector, which file, outcome", () => {
  it("records successes and failures as runtime events (no config version bump)", async () => {
    const t = await createTenant();
    const f = await file(t, "member", "a.csv", { bytes: "a\n" });
    const connectorId = await connectorOf(t);
    const ctx = await ctxFor(t, "member", connectorId);
    const versionBefore = (await db().organization.findUniqueOrThrow({ where: { id: t.org.id } })).configVersion;

    await handleHostResourcesRead(ctx, { uri: f.uri });
    await handleHostResourcesRead(ctx, { uri: "files://nope" }).catch(() => undefined);
    await handleHostResourcesList(ctx, { _meta: { filter: { tags: ["x"] } } });
    await handleHostResourcesList(ctx, { cursor: "c" }).catch(() => undefined);

    const events = await db().auditEvent.findMany({ where: { orgId: t.org.id, action: { startsWith: "host_resources." } }, orderBy: { createdAt: "asc" } });
    expect(events.map((e) => [e.action, e.actorId, e.workspaceId, e.targetId, (e.data as Record<string, unknown>).connectorId])).toEqual([
      ["host_resources.read", t.member.user.id, t.workspace.id, f.id, connectorId],
      ["host_resources.read", t.member.user.id, t.workspace.id, null, connectorId],
      ["host_resources.list", t.member.user.id, t.workspace.id, t.workspace.id, connectorId],
      ["host_resources.list", t.member.user.id, t.workspace.id, t.workspace.id, connectorId],
    ]);
    expect(events.map((e) => e.data)).toEqual([
      expect.objectContaining({ uri: f.uri, outcome: "ok", as: "text", size: 2, mimeType: "text/csv" }),
      expect.objectContaining({ uri: "files://nope", outcome: "error", code: -32002 }),
      expect.objectContaining({ outcome: "ok", count: 0, filter: { tags: ["x"] } }),
      expect.objectContaining({ outcome: "error", code: -32602 }),
    ]);
    expect((await db().organization.findUniqueOrThrow({ where: { id: t.org.id } })).configVersion).toBe(versionBefore);
  });

  it("records the URI and size, never the content; text an upstream sends that PostgreSQL cannot store still gets its event", async () => {
    const t = await createTenant();
    const secret = `private-${uniqueSuffix()}`;
    const f = await file(t, "member", "notes.txt", { bytes: `${secret}\n` });
    const ctx = await ctxFor(t, "member", await connectorOf(t));
    expect(JSON.stringify(await handleHostResourcesRead(ctx, { uri: f.uri }))).toContain(secret);
    await expectHostError(handleHostResourcesRead(ctx, { uri: "files://fl_\u0000\ud800" }), -32002, { uri: "files://fl_\u0000\ud800" });
    expect(await handleHostResourcesList(ctx, { _meta: { filter: { mimeType: "text/plain\u0000", tags: ["\udc00"] } } })).toEqual({ resources: [] });
    const events = await db().auditEvent.findMany({ where: { orgId: t.org.id, action: { startsWith: "host_resources." } }, orderBy: { createdAt: "asc" } });
    expect(JSON.stringify(events)).not.toContain(secret);
    expect(events.map((e) => e.data)).toEqual([
      expect.objectContaining({ uri: f.uri, size: Buffer.byteLength(`${secret}\n`), outcome: "ok" }),
      expect.objectContaining({ uri: "files://fl_\ufffd\ufffd", outcome: "error", code: -32002 }),
      expect.objectContaining({ outcome: "ok", count: 0, filter: { mimeType: "text/plain\ufffd", tags: ["\ufffd"] } }),
    ]);
  });
});
