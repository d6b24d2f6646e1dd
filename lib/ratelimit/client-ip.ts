import { BlockList, isIP } from "node:net";
import { setting } from "@/lib/config/settings";
import { SOCKET_ADDRESS_HEADER } from "@/lib/net/socket-address";

/**
 * The client address to key per-address limits on (sign-in, the demo MCP server, unknown bearer
 * keys). It is the address of the socket the request came in on — stamped by our own server
 * layer into SOCKET_ADDRESS_HEADER, over any copy the client sent — unless that socket belongs
 * to a proxy listed in TRUSTED_PROXIES: then `X-Forwarded-For` is read from the right, skipping
 * the trusted hops, and the first address no trusted proxy vouches for is the client. A client
 * that talks to us directly can write any `X-Forwarded-For` it likes; it is never believed.
 */
export function clientIpFromHeaders(headers: Headers): string {
  const socket = normalizeIp(headers.get(SOCKET_ADDRESS_HEADER) ?? "");
  if (!socket) return "unknown";
  const trusted = trustedProxies();
  if (!isTrusted(trusted, socket)) return socket;
  const hops = (headers.get("x-forwarded-for") ?? "").split(",").map(normalizeIp).filter(Boolean);
  for (let index = hops.length - 1; index >= 0; index--) {
    if (!isIP(hops[index])) return socket; // a hop we cannot read: stop at the proxy we know
    if (!isTrusted(trusted, hops[index])) return hops[index];
  }
  return hops[0] ?? socket;
}

let cached: { entries: readonly string[]; list: BlockList } | undefined;

function trustedProxies(): BlockList {
  const entries = setting("TRUSTED_PROXIES");
  if (cached?.entries === entries) return cached.list;
  const list = new BlockList();
  for (const entry of entries) {
    const [address, prefix] = entry.split("/");
    const type = isIP(address) === 4 ? "ipv4" : "ipv6";
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  cached = { entries, list };
  return list;
}

function isTrusted(list: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** `::ffff:127.0.0.1` and `127.0.0.1` are the same client. */
function normalizeIp(ip: string): string {
  return ip.trim().replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, "$1").toLowerCase();
}
