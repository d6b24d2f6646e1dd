import { ProtocolError, SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { logger } from "@/lib/log";

/**
 * Issue 21: "When the 2026-07-28 path fails to carry calls at all (errors, not slowness),
 * `auto` falls back to `initialize` and says so on the connector." An upstream (or a proxy in
 * front of it) may answer `server/discover` yet refuse every other 2026-07-28 request; the
 * connector then records `eraFallback` and its connections, discovery included, use
 * `initialize` until its url, era or transport change (lib/connectors/connectors.ts).
 */

export interface EraFallback {
  from: "2026-07-28";
  /** What the 2026-07-28 path answered (secrets redacted). */
  reason: string;
  at: string;
}

/** HTTP statuses that refuse a request before anything runs (auth, rate limits and lost sessions excluded). */
const REFUSING_STATUSES = new Set([400, 404, 405, 406, 415, 422, 501]);
/** JSON-RPC errors of the 2026-07-28 envelope itself: header mismatch, unsupported version. */
const ENVELOPE_ERRORS = new Set([-32020, -32022]);

/**
 * Whether `e` says the 2026-07-28 request was refused as such — not slow, not failed by the
 * tool: nothing ran, so the same request may be sent again by `initialize`.
 */
export function refusesModernPath(e: unknown): boolean {
  if (e instanceof ProtocolError) return ENVELOPE_ERRORS.has(e.code);
  if (!(e instanceof SdkError)) return false;
  if (e.code === SdkErrorCode.ClientHttpUnexpectedContent) return true;
  const status = (e as { data?: { status?: unknown } }).data?.status;
  return typeof status === "number" && REFUSING_STATUSES.has(status);
}

/** What the admin reads: the refusal's HTTP status, if any, and its description (already redacted). */
export function refusalText(e: unknown, detail: string): string {
  const status = (e as { data?: { status?: unknown } }).data?.status;
  return typeof status === "number" ? `HTTP ${status}: ${detail}` : detail;
}

export function eraFallback(reason: string): EraFallback {
  return { from: "2026-07-28", reason: reason.slice(0, 300), at: new Date().toISOString() };
}

/** A stored `era_fallback` value, or null when it is not one. */
export function asEraFallback(value: unknown): EraFallback | null {
  const v = value as Partial<EraFallback> | null;
  return v && typeof v === "object" && typeof v.reason === "string" && typeof v.at === "string" ? { from: "2026-07-28", reason: v.reason, at: v.at } : null;
}

/**
 * Records the fallback on the connector (an `auto` one only); the next connection opened reads
 * it. Returns what it recorded (null when the connector had one already, or is not `auto`), for
 * `withdrawEraFallback` should the same request fail over `initialize` too.
 */
export async function recordEraFallback(orgId: string, connectorId: string, reason: string): Promise<EraFallback | null> {
  const fallback = eraFallback(reason);
  const { count } = await db().connector.updateMany({ where: { id: connectorId, orgId, protocolEra: "auto", eraFallback: { equals: Prisma.AnyNull } }, data: { eraFallback: fallback as object } });
  if (count === 0) return null;
  logger.warn({ connectorId, reason: fallback.reason }, "the upstream refused a 2026-07-28 call: the connector tries initialize");
  return fallback;
}

/**
 * Takes back a fallback this request recorded when `initialize` refused the same request too: the
 * refusal was the request's own (a proxy refusing that payload, say), not the 2026-07-28 path's,
 * and one member's odd call must not switch the connector for everyone.
 */
export async function withdrawEraFallback(orgId: string, connectorId: string, recorded: EraFallback): Promise<void> {
  await db().connector.updateMany({ where: { id: connectorId, orgId, eraFallback: { path: ["at"], equals: recorded.at } }, data: { eraFallback: Prisma.DbNull } });
  logger.info({ connectorId }, "the same request failed over initialize too: the connector stays on 2026-07-28");
}

/** The negotiated revision of the connection that carried the first call after the fallback. */
export async function recordFallbackVersion(orgId: string, connectorId: string, protocolVersion: string | null): Promise<void> {
  if (protocolVersion) await db().connector.updateMany({ where: { id: connectorId, orgId }, data: { protocolVersion } });
}
