/**
 * Next.js calls `register` once when it starts a server instance (`next start`, `next dev`; also
 * without scripts/start.ts, as the Dockerfile runs it). A setting that is not valid stops the
 * server with a sentence naming the variable instead of every request failing later. Then our
 * server layer stamps each request with the address of its socket (lib/net/socket-address.ts,
 * what per-client limits key on), the MCP endpoints are handed to scripts/serve.ts's own HTTP
 * server (lib/mcp/serve/node-adapter/serve-node.ts) and the background work starts. All need Node APIs: Next
 * inlines NEXT_RUNTIME per bundle (it is not a setting), so the edge bundle drops this branch.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { settingProblems } = await import("@/lib/config/settings");
  const problems = settingProblems();
  if (problems.length > 0) {
    for (const problem of problems) console.error(`[switchboard] ${problem}`);
    console.error("[switchboard] Not started: fix the setting(s) above (see the Configuration table in README.md).");
    process.exit(2);
  }
  const { stampEveryRequest } = await import("@/lib/net/socket-address");
  stampEveryRequest();
  const { registerNodeMcpHandler } = await import("@/lib/mcp/serve/node-adapter/serve-node");
  registerNodeMcpHandler();
  const { startBackgroundWork } = await import("@/lib/ops/start-background-work");
  startBackgroundWork();
}
