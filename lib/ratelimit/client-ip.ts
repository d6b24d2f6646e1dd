/**
 * The client address to key per-IP limits on. Next.js fills `x-forwarded-for` with the socket
 * address when the request has none; a reverse proxy appends the address it saw, so the
 * right-most entry is the one added by the hop closest to us. `TRUSTED_PROXY_HOPS` (default 0)
 * says how many of our own proxies to skip from the right. A client talking to us directly can
 * still send its own header, which is why per-IP limits are paired with per-account ones.
 */
export function clientIpFromHeaders(headers: Headers): string {
  const forwardedFor = headers.get("x-forwarded-for");
  if (forwardedFor) {
    const hops = forwardedFor.split(",").map((part) => part.trim()).filter(Boolean);
    const trustedHops = Math.max(0, Number.parseInt(process.env.TRUSTED_PROXY_HOPS ?? "0", 10) || 0);
    const index = Math.max(0, hops.length - 1 - trustedHops);
    if (hops[index]) return normalizeIp(hops[index]);
  }
  const realIp = headers.get("x-real-ip")?.trim();
  return realIp ? normalizeIp(realIp) : "unknown";
}

/** `::ffff:127.0.0.1` and `127.0.0.1` are the same client. */
function normalizeIp(ip: string): string {
  return ip.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, "$1").toLowerCase();
}
