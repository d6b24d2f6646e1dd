import http, { type IncomingMessage } from "node:http";
// Relative, not @/: scripts/serve.ts loads this file outside the Next.js bundle.
import { processState } from "../process-state";

/**
 * Route handlers get a fetch Request, which has no socket: the only way the peer address reaches
 * them is a header. This one is written by our own server layer on every request, replacing
 * whatever a client sent under that name, so it cannot be spoofed; lib/ratelimit/client-ip.ts
 * reads it.
 */
export const SOCKET_ADDRESS_HEADER = "x-switchboard-socket-address";

/** Writes the peer address of `req`'s socket into SOCKET_ADDRESS_HEADER (over any sent copy). */
export function stampSocketAddress(req: IncomingMessage): void {
  req.headers[SOCKET_ADDRESS_HEADER] = req.socket?.remoteAddress ?? "";
}

const globalForStamp = processState<{ switchboardStampsSocketAddress?: boolean }>();

/**
 * Stamps every request of every node:http server in this process before its listeners see it.
 * `next start` (and `next dev`) own their HTTP server and give us no hook into it; this runs from
 * instrumentation.ts inside that process. Requests that arrive while Next is still starting up
 * can be emitted before the hook is in; they carry no stamp and count as the "unknown" client,
 * which is never a way around a limit.
 */
export function stampEveryRequest(): void {
  if (globalForStamp.switchboardStampsSocketAddress) return;
  globalForStamp.switchboardStampsSocketAddress = true;
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function stampedEmit(this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === "request") stampSocketAddress(args[0] as IncomingMessage);
    return Reflect.apply(emit, this, [event, ...args]) as boolean;
  } as typeof emit;
}
