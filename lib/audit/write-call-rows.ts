import { randomFillSync } from "node:crypto";
import { type PlainStatement, runPlainSql } from "@/lib/db/run-plain-sql";
import { groupWrites } from "@/lib/db/group-writes";
import type { Caller } from "@/lib/auth/caller";
import { type AuditInput, auditRow } from "@/lib/audit/record-audit-event";
import type { AuditAction } from "@/lib/audit/actions";
import { onShutdown } from "@/lib/ops/shutdown";
import { processState } from "@/lib/process-state";

/**
 * The two writes of every call in flight's audit event (tools/call, prompts/get, resources/read), group-committed (lib/db/group-writes.ts):
 * the "started" row, committed before the call leaves the platform, and the ending merged
 * into it afterwards (a host-resource request's one row goes the same way). Concurrent calls share one statement and its commit; each
 * call still waits for its own row to be committed, so "a tool call is never executed without
 * its audit event" holds for every one of them. The row is recordAuditEvent's (`auditRow`),
 * with its own id and time of the call.
 */

interface NewRow {
  id: string;
  orgId: string | null;
  workspaceId: string | null;
  actorType: string;
  actorId: string | null;
  action: AuditAction;
  targetType: string;
  targetId: string | null;
  data: string;
  createdAt: string;
  /** The call's trace (lib/observability), null with tracing off. */
  traceId: string | null;
  /**
   * `{ orgId: version }` the row is inserted only under: the configuration versions its request
   * assumed (lib/config-version/read-current-version.ts, AssumedVersions); null: unconditional.
   */
  expect: string | null;
}

interface Ending {
  id: string;
  orgId: string;
  data: string;
}

/**
 * Random bytes for event ids, filled 4 KB at a time: one system call per 409 ids instead of
 * one per id (randomBytes per call showed in the tools/call profile, bench/README.md).
 */
const randomPool = { bytes: Buffer.alloc(4096), used: 4096 };

/** Where 10 fresh random bytes start in `randomPool.bytes` (each byte is handed out once). */
function takeRandomBytes(): number {
  if (randomPool.used + 10 > randomPool.bytes.length) {
    randomFillSync(randomPool.bytes);
    randomPool.used = 0;
  }
  randomPool.used += 10;
  return randomPool.used - 10;
}

/**
 * An id shaped like the ones Prisma gives other events (25 characters, "c", then the time in
 * base 36, so later events sort after earlier ones), made here because this path bypasses
 * the client that would generate it.
 */
function newEventId(now: number): string {
  // 80 random bits as 16 base-32 digits (0-9, a-v: base-36 digits), without a BigInt per id.
  const at = takeRandomBytes();
  const { bytes } = randomPool;
  let random = "";
  for (let i = at; i < at + 10; i += 5) {
    // Five bytes are 40 bits: eight digits of five bits each.
    const high = bytes[i] * 2 ** 12 + bytes[i + 1] * 2 ** 4 + (bytes[i + 2] >> 4);
    const low = (bytes[i + 2] & 0xf) * 2 ** 16 + bytes[i + 3] * 2 ** 8 + bytes[i + 4];
    random += high.toString(32).padStart(4, "0") + low.toString(32).padStart(4, "0");
  }
  return `c${now.toString(36).padStart(8, "0")}${random}`;
}

/**
 * One statement for a whole group, whatever its mix: the new calls' "started" rows are
 * inserted and the finished calls' endings merged into theirs (`jsonb ||`; the org in the
 * join keeps an ending in its tenant), so a busy instance commits once per group instead of
 * once for the inserts and once for the endings. Rows travel as arrays through unnest, so the
 * text is the same for any number of rows and is prepared once per connection. The UPDATE
 * cannot meet a row the same statement inserts, and needs not: a call's ending is submitted
 * only after its "started" row was committed.
 */
const INSERT_ROWS =
  "INSERT INTO audit_events (id, org_id, workspace_id, actor_type, actor_id, action, target_type, target_id, data, created_at, trace_id) " +
  "SELECT v.id, v.org_id, v.workspace_id, v.actor_type, v.actor_id, v.action, v.target_type, v.target_id, v.data, v.created_at, v.trace_id " +
  "FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::jsonb[], $10::timestamp[], $11::text[], $15::jsonb[]) " +
  "AS v(id, org_id, workspace_id, actor_type, actor_id, action, target_type, target_id, data, created_at, trace_id, expect) " +
  // A row whose request assumed configuration versions goes in only while each is current.
  "WHERE v.expect IS NULL OR NOT EXISTS (SELECT 1 FROM jsonb_each_text(v.expect) AS e(org_id, version) LEFT JOIN organizations o ON o.id = e.org_id WHERE o.config_version IS DISTINCT FROM e.version::int)";
const MERGE_ENDINGS =
  "UPDATE audit_events AS a SET data = a.data || v.ending FROM unnest($12::text[], $13::text[], $14::jsonb[]) AS v(id, org_id, ending) WHERE a.id = v.id AND a.org_id = v.org_id";

const WRITE_GROUP: PlainStatement = {
  name: "sb_write_tool_call_rows",
  text: `WITH inserted AS (${INSERT_ROWS} RETURNING id), ended AS (${MERGE_ENDINGS}) SELECT id FROM inserted`,
};

/**
 * WRITE_GROUP for one write of a failed group (group-writes.ts): the group may have committed
 * before its answer was lost with the connection, so a row already there counts as inserted (the
 * statement's snapshot, taken before its insert, sees it) instead of failing the call on its id.
 * An ending merged twice is the same ending.
 */
const WRITE_AGAIN: PlainStatement = {
  name: "sb_write_tool_call_rows_again",
  text:
    `WITH inserted AS (${INSERT_ROWS} ON CONFLICT (id) DO NOTHING RETURNING id), ended AS (${MERGE_ENDINGS}), ` +
    "already AS (SELECT id FROM audit_events WHERE id = ANY($1::text[])) " +
    "SELECT id FROM inserted UNION SELECT id FROM already",
};

const COLUMNS = ["id", "orgId", "workspaceId", "actorType", "actorId", "action", "targetType", "targetId", "data", "createdAt", "traceId"] as const;

/** What a row's insert answers: its id, or null when the versions its request assumed had moved. */
type Inserted = string | null;

type Write = { row: NewRow } | { ending: Ending };

/** Writes the group in one statement; each insert is answered with its row's id (null: not inserted, `expect` failed). */
async function writeRows(writes: Write[], statement = WRITE_GROUP): Promise<Array<Inserted | undefined>> {
  const rows: NewRow[] = [];
  const endings: Ending[] = [];
  for (const w of writes) {
    if ("row" in w) rows.push(w.row);
    else endings.push(w.ending);
  }
  const inserted = COLUMNS.map((c) => rows.map((r) => r[c]));
  const result = await runPlainSql<{ id: string }>(statement, [...inserted, endings.map((e) => e.id), endings.map((e) => e.orgId), endings.map((e) => e.data), rows.map((r) => r.expect)]);
  const ids = new Set(result.map((r) => r.id));
  return writes.map((w) => ("row" in w ? (ids.has(w.row.id) ? w.row.id : null) : undefined));
}

const globalForRows = processState<{ switchboardToolCallWrites?: ReturnType<typeof groupWrites<Write, Inserted | undefined>> }>();
// Fourteen array parameters whatever the number of rows; 500 keep one statement small.
const writer = (globalForRows.switchboardToolCallWrites ??= groupWrites<Write, Inserted | undefined>({
  writeMany: writeRows,
  writeOne: async (w) => (await writeRows([w]))[0],
  writeAgain: async (w) => (await writeRows([w], WRITE_AGAIN))[0],
  maxGroup: 500,
}));

/** Inserts the event and resolves with its id once it is committed; rejects when it is not. */
export async function insertCallEvent(caller: Caller, input: AuditInput & { orgId: string }): Promise<string> {
  const id = await insertRow(caller, input, null);
  if (id === null) throw new Error("an unconditional audit row was not inserted");
  return id;
}

/**
 * insertCallEvent for a request that assumed configuration versions (`expect`,
 * lib/config-version/read-current-version.ts): the row goes in, in the same statement, only
 * while each is still current; null when one has moved (nothing was inserted).
 */
export function insertCallEventIfCurrent(caller: Caller, input: AuditInput & { orgId: string }, expect: ReadonlyMap<string, number>): Promise<string | null> {
  return insertRow(caller, input, expect.size > 0 ? JSON.stringify(Object.fromEntries(expect)) : null);
}

function insertRow(caller: Caller, input: AuditInput & { orgId: string }, expect: string | null): Promise<string | null> {
  const { data, ...event } = auditRow(caller, input);
  const now = Date.now();
  const row: NewRow = { ...event, orgId: input.orgId, id: newEventId(now), data: JSON.stringify(data ?? null), createdAt: new Date(now).toISOString(), expect };
  return writer.write({ row }).then((id) => id ?? null);
}

const globalForEndings = processState<{ switchboardPendingCallEndings?: Set<Promise<void>> }>();
/** Endings submitted and not yet committed (or failed). */
const pendingEndings = (globalForEndings.switchboardPendingCallEndings ??= new Set());

/**
 * Merges `ending` into the event's data without waiting for it: the answer of a call is not
 * held back by its ending's commit (the started row is the durable record). `onError` hears a
 * failed write. A graceful stop and this instance's audit reads wait for what is pending
 * (`callEndingsWritten`).
 */
export function submitCallEnding(orgId: string, eventId: string, ending: Record<string, unknown>, onError: (e: unknown) => void): void {
  const written = mergeCallEnding(orgId, eventId, ending).catch(onError);
  pendingEndings.add(written);
  void written.then(() => pendingEndings.delete(written));
  watchShutdown();
}

let watching = false;
function watchShutdown(): void {
  if (watching) return;
  watching = true;
  onShutdown("audit-call-endings", callEndingsWritten);
}

/** Resolves once every call ending submitted so far is committed or has failed. */
export async function callEndingsWritten(): Promise<void> {
  while (pendingEndings.size > 0) await Promise.all([...pendingEndings]);
}

/** Merges `ending` into the event's data; resolves once committed. */
export function mergeCallEnding(orgId: string, eventId: string, ending: Record<string, unknown>): Promise<void> {
  return writer.write({ ending: { id: eventId, orgId, data: JSON.stringify(ending) } }).then(() => undefined);
}
