import { lookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { BlockList, isIP } from "node:net";

/**
 * One GET of a document a client names by URL (its Client ID Metadata Document), with the
 * network trust boundary the draft asks of an authorization server: "Authorization servers
 * SHOULD avoid fetching any URLs using private or loopback addresses". The host name is
 * resolved once, every address checked against the special-use ranges (RFC 6890), and the
 * connection pinned to the checked address (no second resolution can swap it); redirects are
 * refused, the body is capped and the whole exchange has a deadline.
 */

export const MAX_DOCUMENT_BYTES = 5 * 1024;
export const FETCH_TIMEOUT_MS = 5_000;

export class DocumentFetchError extends Error {
  name = "DocumentFetchError";
}

export interface FetchedDocument {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const SPECIAL_USE = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12],
  ["192.0.0.0", 24], ["192.0.2.0", 24], ["192.88.99.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15],
  ["198.51.100.0", 24], ["203.0.113.0", 24], ["224.0.0.0", 4], ["240.0.0.0", 4],
] as const) SPECIAL_USE.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  ["::", 96], ["::1", 128], ["64:ff9b::", 96], ["64:ff9b:1::", 48], ["2002::", 16], ["100::", 64], ["2001::", 23], ["2001:db8::", 32], ["fc00::", 7], ["fe80::", 10], ["ff00::", 8],
  // Deprecated site-local (still routed inside some networks), documentation (RFC 9637), SRv6 SIDs (RFC 9602).
  ["fec0::", 10], ["3fff::", 20], ["5f00::", 16],
] as const) SPECIAL_USE.addSubnet(net, prefix, "ipv6");

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

function family(address: string): "ipv4" | "ipv6" {
  return isIP(address) === 6 ? "ipv6" : "ipv4";
}

/**
 * The IPv4 address inside an IPv4-mapped IPv6 address, in either spelling: `::ffff:127.0.0.1`,
 * or the hex form URL parsing turns it into (`[::ffff:127.0.0.1]` → `::ffff:7f00:1`).
 */
function mappedIpv4(address: string): string | null {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted) return dotted[1];
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return null;
  const [high, low] = [parseInt(hex[1], 16), parseInt(hex[2], 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}

/** Whether `address` may be fetched: public, or loopback when the caller allows it (tests). */
export function isFetchableAddress(address: string, allowLoopback: boolean): boolean {
  // An IPv4-mapped IPv6 address is its IPv4 address (BlockList would match every IPv4 against ::ffff:0:0/96).
  const mapped = mappedIpv4(address);
  if (mapped) return isFetchableAddress(mapped, allowLoopback);
  if (allowLoopback && LOOPBACK.check(address, family(address))) return true;
  return !SPECIAL_USE.check(address, family(address));
}

async function pinnedAddress(hostname: string, allowLoopback: boolean): Promise<{ address: string; family: number }> {
  const bare = hostname.replace(/^\[|\]$/g, "");
  const addresses = isIP(bare) ? [{ address: bare, family: isIP(bare) }] : await lookup(bare, { all: true }).catch(() => []);
  if (addresses.length === 0) throw new DocumentFetchError(`${hostname} does not resolve.`);
  // Every address must pass: a name that also resolves to a private address is refused whole.
  if (!addresses.every((a) => isFetchableAddress(a.address, allowLoopback))) throw new DocumentFetchError(`${hostname} resolves to a private or reserved address.`);
  return addresses[0];
}

/** GET `url` (https, or http when loopback is allowed) under the limits above; throws DocumentFetchError. */
export async function fetchClientDocument(url: URL, allowLoopback: boolean): Promise<FetchedDocument> {
  const pinned = await pinnedAddress(url.hostname, allowLoopback);
  const transport = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const fail = (message: string) => {
      request.destroy();
      reject(new DocumentFetchError(message));
    };
    const request = transport.get(url, {
      headers: { accept: "application/json" },
      // Tests serve https documents on loopback with a certificate of their own making; only
      // there, and only with the test-only setting, is the certificate not checked.
      rejectUnauthorized: !(allowLoopback && LOOPBACK.check(pinned.address, family(pinned.address))),
      // Node asks for every address (`all`) when it may race families; either way, only the checked one.
      lookup: ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) =>
        options.all ? callback(null, [pinned]) : callback(null, pinned.address, pinned.family)) as never,
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    request.on("error", (error) => reject(new DocumentFetchError(error.name === "AbortError" ? "The document did not arrive in time." : `The document could not be fetched: ${error.message}.`)));
    request.on("response", (response) => {
      if (response.statusCode && response.statusCode >= 300 && response.statusCode < 400) return fail("The document's URL redirects; it must answer itself.");
      if (Number(response.headers["content-length"] ?? 0) > MAX_DOCUMENT_BYTES) return fail(`The document is larger than ${MAX_DOCUMENT_BYTES} bytes.`);
      const chunks: Buffer[] = [];
      let size = 0;
      response.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_DOCUMENT_BYTES) return fail(`The document is larger than ${MAX_DOCUMENT_BYTES} bytes.`);
        chunks.push(chunk);
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString("utf8") }));
      response.on("error", (error) => reject(new DocumentFetchError(`The document could not be read: ${error.message}.`)));
    });
  });
}
