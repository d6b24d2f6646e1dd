import { startBlobWorker } from "@/lib/files/run-blob-worker";
import { startAuditPrune } from "@/lib/audit/prune-audit-events";

/**
 * The one place where a server process starts its periodic work (called once, from
 * instrumentation.ts, when Next.js boots the server). Each worker stops itself on shutdown
 * through lib/ops/shutdown. The MCP live-session sweep is not here: it runs only while
 * sessions are live and starts with the first one.
 */
export function startBackgroundWork(): void {
  startBlobWorker();
  startAuditPrune();
}
