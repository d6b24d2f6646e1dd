/**
 * Runs once when the Next.js server process starts. On the Node runtime it makes our server
 * layer stamp each request with the address of its socket (lib/net/socket-address.ts), which is
 * what per-client limits key on.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { stampEveryRequest } = await import("@/lib/net/socket-address");
  stampEveryRequest();
}
