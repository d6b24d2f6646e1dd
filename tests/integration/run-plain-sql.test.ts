import { PrismaPg } from "@prisma/adapter-pg";
import { afterAll, describe, expect, it } from "vitest";
import { insertCallEvent, mergeCallEnding } from "@/lib/audit/write-call-rows";
import { readVersions } from "@/lib/config-version/config-version";
import { db, dbPool, embeddedDatabaseUrl } from "@/lib/db/client";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { setting } from "@/lib/config/settings";
import { createTenant } from "@/tests/helpers/factories";

/**
 * The hot path's plain-SQL statements (lib/db/run-plain-sql.ts): the configuration version
 * read on every MCP request and the tool-call audit rows. They go through the pg pool under
 * db()'s client, and through the raw query of a client a test (or anything else) put in its
 * place, with the same result either way: the org's version as the API sees it, the row as
 * recordAuditEvent would write it, and the ending merged into its data.
 */

const holder = globalThis as unknown as { switchboardDb?: PrismaClient };
const own = db();
const standIn = new PrismaClient({ adapter: new PrismaPg({ connectionString: setting("DATABASE_URL") ?? embeddedDatabaseUrl() }) });

afterAll(async () => {
  holder.switchboardDb = own;
  await standIn.$disconnect();
});

async function writeAndRead(orgId: string, userId: string) {
  const caller = { kind: "user" as const, userId, apiKey: null, orgRole: null } as never;
  const id = await insertCallEvent(caller, { orgId, action: "tool.call", targetType: "connector", targetId: "c1", data: { status: "started", tool: "t" } });
  await mergeCallEnding(orgId, id, { status: "finished", outcome: "ok" });
  const row = await own.auditEvent.findFirst({ where: { id, orgId } });
  return { versions: await readVersions([orgId, "no-such-org"]), row };
}

describe("statements sent as plain SQL", () => {
  it.each([
    ["db()'s own pool", () => (holder.switchboardDb = own)],
    ["a client put in db()'s place", () => (holder.switchboardDb = standIn)],
  ])("through %s: the org's version, and the tool-call row with its ending merged", async (_label, use) => {
    const t = await createTenant();
    use();
    expect(dbPool() !== null).toBe(holder.switchboardDb === own);
    const { versions, row } = await writeAndRead(t.org.id, t.member.user.id);
    holder.switchboardDb = own;
    const org = await own.organization.findFirst({ where: { id: t.org.id }, select: { configVersion: true } });
    expect(versions).toEqual(new Map([[t.org.id, org!.configVersion]]));
    expect(row).toMatchObject({ orgId: t.org.id, workspaceId: null, action: "tool.call", targetType: "connector", targetId: "c1", actorId: t.member.user.id });
    expect(row!.data).toEqual({ status: "finished", tool: "t", outcome: "ok" });
    expect(Math.abs(row!.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it("an ending and new calls' rows queued together share one statement: the ending is merged, the new rows are inserted", async () => {
    const t = await createTenant();
    const caller = { kind: "user" as const, userId: t.member.user.id, apiKey: null, orgRole: null } as never;
    const start = (tool: string) => insertCallEvent(caller, { orgId: t.org.id, action: "tool.call", targetType: "connector", targetId: "c1", data: { status: "started", tool } });
    const first = await start("first");
    // A lone write goes out at once; what is submitted while it is in flight forms the next group.
    const lone = start("lone");
    const [, second, third] = await Promise.all([mergeCallEnding(t.org.id, first, { status: "finished", outcome: "ok" }), start("second"), start("third"), lone]);
    const rows = await own.auditEvent.findMany({ where: { orgId: t.org.id } });
    // Ids made in the same millisecond sort in no particular order: compared by tool.
    const byTool = (pairs: Array<[string, unknown]>) => pairs.sort((a, b) => JSON.stringify(a[1]).localeCompare(JSON.stringify(b[1])));
    expect(byTool(rows.map((r) => [r.id, r.data]))).toEqual(byTool([
      [first, { status: "finished", tool: "first", outcome: "ok" }],
      [await lone, { status: "started", tool: "lone" }],
      [second, { status: "started", tool: "second" }],
      [third, { status: "started", tool: "third" }],
    ]));
  });
});
