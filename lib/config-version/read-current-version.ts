import { LRUCache } from "lru-cache";
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

/**
 * The versions of a request that may assume each organization's version is the one this process
 * read last, instead of reading it (`assumed`): a stateless tools/call, whose audit row's insert
 * then checks, in the same statement, that every assumed version is still current — and is not
 * made when one is not, so the request is served again with versions read (issue 22 point 4:
 * one round trip per call instead of two). Any other answer made on assumed versions is sent
 * only after `confirmAssumed` has read them again. An organization this process has not read
 * yet is read as usual.
 */
export class AssumedVersions extends Map<string, number | null> {
  readonly assumed = new Map<string, number>();
}

/** A call's audit row was not inserted: a version its request assumed has moved. Served again, with versions read. */
export class AssumedVersionsMovedError extends Error {
  constructor() {
    super("the configuration changed while the request was served");
    this.name = "AssumedVersionsMovedError";
  }
}

/** Organizations whose last read version this process keeps (the least recently read go first). */
const MAX_KNOWN_ORGS = 100_000;

interface Batch {
  orgIds: Set<string>;
  answer: Promise<Versions>;
  settle: { resolve: (v: Versions) => void; reject: (e: unknown) => void };
}

const globalForVersions = processState<{ switchboardVersionReads?: { next: Batch | null; running: boolean; made: number } }>();
const reads = (globalForVersions.switchboardVersionReads ??= { next: null, running: false, made: 0 });

/** How many version reads (queries) this process has made (tests: a tools/call that assumed them made none). */
export function versionReadsMade(): number {
  return reads.made;
}
const globalForLastRead = processState<{ switchboardLastReadVersions?: LRUCache<string, number> }>();
/** Each organization's version as this process last read it. */
const lastRead = (globalForLastRead.switchboardLastReadVersions ??= new LRUCache({ max: MAX_KNOWN_ORGS }));

/** The org's current configuration version, or null when the organization does not exist. */
export async function readCurrentVersion(orgId: string, seen?: VersionsSeen): Promise<number | null> {
  const earlier = seen?.get(orgId);
  if (earlier !== undefined) return earlier;
  if (seen instanceof AssumedVersions) {
    const known = lastRead.get(orgId);
    if (known !== undefined) {
      seen.assumed.set(orgId, known);
      seen.set(orgId, known);
      return known;
    }
  }
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
    reads.made++;
    const versions = await readVersions(batch.orgIds);
    // Reads run one at a time: each is newer than what the last one left (an organization gone is forgotten).
    for (const orgId of batch.orgIds) {
      const version = versions.get(orgId);
      if (version === undefined) lastRead.delete(orgId);
      else lastRead.set(orgId, version);
    }
    batch.settle.resolve(versions);
  } catch (e) {
    batch.settle.reject(e);
  } finally {
    reads.running = false;
    if (reads.next) void runNext();
  }
}

/** Whether every version `seen` assumed is still current (read now); true when it assumed none. */
export async function confirmAssumed(seen: VersionsSeen): Promise<boolean> {
  if (!(seen instanceof AssumedVersions) || seen.assumed.size === 0) return true;
  const fresh: VersionsSeen = new Map();
  const now = await Promise.all([...seen.assumed].map(async ([orgId, version]) => (await readCurrentVersion(orgId, fresh)) === version));
  return now.every(Boolean);
}
