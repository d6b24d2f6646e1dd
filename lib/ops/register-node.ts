/**
 * What `instrumentation.ts` runs when Next.js starts a Node server instance (`next start`,
 * `next dev`; also without scripts/start.ts, as the Dockerfile runs it). It lives here, imported
 * only from inside instrumentation's `NEXT_RUNTIME === "nodejs"` branch, because Turbopack also
 * analyses instrumentation.ts for the Edge runtime: a Node API written there (process.exit)
 * printed "Ecmascript file had an error" in the middle of every first `npm start`.
 *
 * A setting that is not valid stops the server with a sentence naming the variable instead of
 * every request failing later. Then our server layer stamps each request with the address of its
 * socket (lib/net/socket-address.ts, what per-client limits key on), the MCP endpoints are handed
 * to scripts/serve.ts's own HTTP server (lib/mcp/serve/node-adapter/serve-node.ts) and the
 * background work starts.
 */
export async function registerNode(): Promise<void> {
  const { SETTINGS_NOT_STARTED, settingProblems } = await import("@/lib/config/settings");
  const problems = settingProblems();
  if (problems.length > 0) {
    for (const problem of problems) console.error(`[switchboard] ${problem}`);
    console.error(`[switchboard] ${SETTINGS_NOT_STARTED}`);
    process.exit(2);
  }
  // Traces first (when an OTEL_* setting asks for them), so the modules loaded next are instrumented.
  const { startTracing } = await import("@/lib/observability/start-tracing");
  await startTracing();
  const { stampEveryRequest } = await import("@/lib/net/socket-address");
  stampEveryRequest();
  const { registerNodeMcpHandler } = await import("@/lib/mcp/serve/node-adapter/serve-node");
  registerNodeMcpHandler();
  const { startBackgroundWork } = await import("@/lib/ops/start-background-work");
  startBackgroundWork();
}
