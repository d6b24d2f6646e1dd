/**
 * Next.js calls `register` once when it starts a server instance. Everything it does needs Node
 * APIs, so it is in lib/ops/register-node.ts, imported only inside this branch: Next inlines
 * NEXT_RUNTIME per bundle (it is not a setting), so the Edge bundle drops the branch and never
 * looks into that module — the form Next's instrumentation guide gives for Node-only code.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { registerNode } = await import("@/lib/ops/register-node");
    await registerNode();
  }
}
