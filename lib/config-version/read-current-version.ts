import { readVersions } from "@/lib/config-version/config-version";
import { processState } from "@/lib/process-state";

/**
 * An organization's configuration version as of now: read from PostgreSQL after the call was
 * made, so every change committed before it (on any instance) is seen. This is the check that
 * keeps the MCP caches honest — caller views, published surfaces and resolved API keys are each
 * labelled with the version they were built at and used only while it is still current, so a
 * lost change announcement cannot keep a revoked key or an old role alive.
 *
 * It stays cheap under load by batching: callers join the next read, one query for every
 * organization asked about, and a read only starts once the previous one has ended. A read
 * never starts before a caller joined it, so no caller gets a version older than its call.
 */

type Versions = Map<string, number>;

/**
 * The versions one request has read so far (organization id → version, null: no such
 * organization), so its second look — authentication, then the caller's view — reuses the
 * first instead of querying again. Reusing an earlier read can only label a cache entry older
 * than what it holds, which makes it be rebuilt on the next request: never served past a change.
 * Made per request by the MCP edge (lib/mcp/serve/http-edge/serve-mcp.ts), never kept after it.
 */
export type VersionsSeen = Map<string, number | null>;

interface Batch {
  orgIds: Set<string>;
  answer: Promise<Versions>;
  settle: { resolve: (v: Versions) => void; reject: (e: unknown) => void };
}

const globalForVersions = processState<{ switchboardVersionReads?: { next: Batch | null; running: boolean } }>();
const reads = (globalForVersions.switchboardVersionReads ??= { next: null, running: false });

/** The org's current configuration version, or null when the organization does not exist. */
export async function readCurrentVersion(orgId: string, seen?: VersionsSeen): Promise<number | null> {
  const earlier = seen?.get(orgId);
  if (earlier !== undefined) return earlier;
  const batch = (reads.next ??= newBatch());
  batch.orgIds.add(orgId);
  if (!reads.running) queueMicrotask(runNext);
  const version = (await batch.answer).get(orgId) ?? null;
  seen?.set(orgId, version);
  return version;
}

function newBatch(): Batch {
  let settle!: Batch["settle"];
  const answer = new Promise<Versions>((resolve, reject) => (settle = { resolve, reject }));
  return { orgIds: new Set(), answer, settle };
}

async function runNext(): Promise<void> {
  const batch = reads.next;
  if (reads.running || !batch) return;
  reads.next = null;
  reads.running = true;
  try {
    batch.settle.resolve(await readVersions(batch.orgIds));
  } catch (e) {
    batch.settle.reject(e);
  } finally {
    reads.running = false;
    if (reads.next) void runNext();
  }
}
