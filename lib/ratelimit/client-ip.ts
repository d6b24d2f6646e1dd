/**
 * The client address to key per-IP limits on. Next.js fills `x-forwarded-for` with the socket
 * address when the request has none, and a reverse proxy appends the address it saw, so the
 * right-most entry is the one written by the hop closest to us. A client talking to us directly
 * can still send its own header, which is why per-IP limits are paired with per-account ones.
 */
export function clientIpFromHeaders(headers: Headers): string {
  const forwardedFor = headers.get("x-forwarded-for");
  const nearest = forwardedFor?.split(",").map((part) => part.trim()).filter(Boolean).at(-1);
  const address = nearest ?? headers.get("x-real-ip")?.trim();
  return address ? normalizeIp(address) : "unknown";
}

/** `::ffff:127.0.0.1` and `127.0.0.1` are the same client. */
function normalizeIp(ip: string): string {
  return ip.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, "$1").toLowerCase();
}
