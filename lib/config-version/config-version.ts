import { AsyncLocalStorage } from "node:async_hooks";
import type { Prisma } from "@/lib/generated/prisma/client";
import { type PlainStatement, runPlainSql } from "@/lib/db/run-plain-sql";
import { publish, subscribe } from "@/lib/redis/pubsub";
import { processState } from "@/lib/process-state";

/**
 * The configuration version of an organization: the one place that says "what an MCP caller
 * of this organization may see has changed".
 *
 * - `bump(tx, orgId)`: every write that changes configuration (connectors and their tools,
 *   resources, graph, skills, servers and their connectors, roles, workspaces, members, org
 *   settings, API key revocation) increments the version inside its own transaction, so the
 *   version commits (or rolls back) with the change. Caches of snapshots, access and key
 *   resolution are keyed by it.
 * - `announce(orgId)`: after commit, a hint to every instance (Redis pub/sub, or this instance
 *   only without Redis) that the organization changed. A hint: the version in PostgreSQL stays
 *   the truth, and a lost announcement is caught by the next version check.
 * - `watch(handler)`: hears every announcement, from any instance.
 * - `readVersions(orgIds)`: the current versions, in one query (the cheap check).
 *
 * Writers do not announce: `withAnnouncedChanges` (around each admin API request and admin
 * action) announces, once the work is over, every organization the work bumped.
 */

const CHANNEL = "config-changed";

type VersionClient = Pick<Prisma.TransactionClient, "organization">;

const globalForVersions = processState<{ switchboardBumpedOrgs?: AsyncLocalStorage<Set<string>> }>();
/** The organizations bumped by the work running in this async context (one admin request or action). */
const bumpedOrgs = (globalForVersions.switchboardBumpedOrgs ??= new AsyncLocalStorage<Set<string>>());

/** Increments the organization's version in the caller's transaction; announced after the work. */
export async function bump(tx: VersionClient, orgId: string): Promise<void> {
  await tx.organization.updateMany({ where: { id: orgId }, data: { configVersion: { increment: 1 } } });
  markBumped(orgId);
}

/**
 * For a write whose version the database bumps itself (a trigger on mcp_resources bumps it for
 * any change to a stored resource, plain SQL included): only has the change announced after
 * the work, so the version still moves once.
 */
export function markBumped(orgId: string): void {
  bumpedOrgs.getStore()?.add(orgId);
}

/** Tells every instance (this one included) that `orgId` changed its configuration. Never throws. */
export function announce(orgId: string): void {
  void publish(CHANNEL, orgId).catch(() => undefined);
}

/** Calls `handler` with the organization of every announcement (from any instance); returns the unsubscribe. */
export function watch(handler: (orgId: string) => void): () => void {
  return subscribe(CHANNEL, handler);
}

const READ_VERSIONS: PlainStatement = { name: "sb_read_config_versions", text: "SELECT id, config_version FROM organizations WHERE id = ANY($1::text[])" };

/** The current config version of each organization (missing ones are absent). */
export async function readVersions(orgIds: Iterable<string>): Promise<Map<string, number>> {
  const ids = [...new Set(orgIds)];
  if (ids.length === 0) return new Map();
  // Read on every MCP request (batched): plain SQL, prepared once per connection (lib/db/run-plain-sql.ts).
  const rows = await runPlainSql<{ id: string; config_version: number }>(READ_VERSIONS, [ids]);
  return new Map(rows.map((r) => [r.id, r.config_version]));
}

/**
 * Runs `work` and then announces each organization it bumped, once. Announced also when the
 * work ends in an error (a redirect, or a failure after its transaction committed): a spurious
 * hint costs a version check, a missing one the wait for the next poll. Nested calls join the
 * outer one.
 */
export async function withAnnouncedChanges<T>(work: () => Promise<T>): Promise<T> {
  if (bumpedOrgs.getStore()) return work();
  const bumped = new Set<string>();
  try {
    return await bumpedOrgs.run(bumped, work);
  } finally {
    for (const orgId of bumped) announce(orgId);
  }
}
