/**
 * Next.js calls `register` once when it starts a server instance (`next start`, `next dev`).
 * Background work needs Node APIs: Next inlines NEXT_RUNTIME per bundle (it is not a setting),
 * so the edge bundle drops this branch and never includes the database client.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startBackgroundWork } = await import("@/lib/ops/start-background-work");
    startBackgroundWork();
  }
}
