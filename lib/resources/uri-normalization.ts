/**
 * URI normalization for resource identity (seed 004 "Duplicate URIs"): two resources are the
 * same resource when their URIs are equal after this normalization. Pure, no I/O.
 *
 * Syntax-based normalization (RFC 3986 §6.2.2), valid for every scheme:
 * - case: the scheme and the host are lowercased; hex digits of percent-escapes uppercased;
 * - percent-encoding: escapes of unreserved characters (ALPHA DIGIT - . _ ~) are decoded;
 * - path segments: dot-segments are removed from hierarchical (absolute) paths.
 * Scheme-based normalization (§6.2.3) for http, https, ws and wss: the default port is
 * dropped and an empty path becomes "/". An empty port ("host:") is dropped for every scheme.
 *
 * WHATWG `URL` is not used on purpose: it lowercases hosts only for its "special" schemes, so
 * `CRM://Schema` and `crm://schema` would stay apart although RFC 3986 makes them equal.
 */

/** RFC 3986 Appendix B: splits any string into scheme, authority, path, query, fragment. */
const URI_PARTS = /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s;
const UNRESERVED = /[A-Za-z0-9\-._~]/;
const DEFAULT_PORTS: Record<string, string> = { http: "80", https: "443", ws: "80", wss: "443" };
/** Schemes whose empty path means "/" (RFC 9110 §4.2.3, RFC 6455 §3). */
const ROOTED_SCHEMES = new Set(Object.keys(DEFAULT_PORTS));

/** Uppercases the hex of every escape and decodes the escapes of unreserved characters. */
export function normalizePercentEncoding(text: string): string {
  return text.replace(/%([0-9A-Fa-f]{2})/g, (_match, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}

/** RFC 3986 §5.2.4 remove_dot_segments. */
export function removeDotSegments(path: string): string {
  let input = path;
  const output: string[] = [];
  while (input.length > 0) {
    if (input.startsWith("../")) input = input.slice(3);
    else if (input.startsWith("./")) input = input.slice(2);
    else if (input.startsWith("/./")) input = input.slice(2);
    else if (input === "/.") input = "/";
    else if (input.startsWith("/../")) {
      input = input.slice(3);
      output.pop();
    } else if (input === "/..") {
      input = "/";
      output.pop();
    } else if (input === "." || input === "..") input = "";
    else {
      // Move the first segment (with its leading "/", if any) to the output.
      const next = input.indexOf("/", input.startsWith("/") ? 1 : 0);
      const end = next === -1 ? input.length : next;
      output.push(input.slice(0, end));
      input = input.slice(end);
    }
  }
  return output.join("");
}

function normalizeAuthority(authority: string, scheme: string): string {
  const at = authority.lastIndexOf("@");
  const userinfo = at === -1 ? null : authority.slice(0, at);
  const hostPort = at === -1 ? authority : authority.slice(at + 1);
  // The port follows the last ":" outside an IP literal ("[::1]:8080").
  const portMatch = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(hostPort);
  let host = hostPort;
  let port: string | undefined;
  if (portMatch) {
    host = portMatch[1];
    port = portMatch[2];
  }
  // Decode first (%41 is "A", which must lowercase too), then lowercase, then uppercase the
  // hex of the escapes that remain.
  host = normalizePercentEncoding(normalizePercentEncoding(host).toLowerCase());
  if (port !== undefined) {
    port = port === "" ? undefined : port.replace(/^0+(?=\d)/, "");
    if (port !== undefined && DEFAULT_PORTS[scheme] === port) port = undefined;
  }
  return `${userinfo === null ? "" : `${normalizePercentEncoding(userinfo)}@`}${host}${port === undefined ? "" : `:${port}`}`;
}

/**
 * The normalized form of `uri`. Total: any string has one, so a requested URI can always be
 * looked up; strings that are not URIs simply match nothing that was published.
 */
export function normalizeResourceUri(uri: string): string {
  const parts = URI_PARTS.exec(uri);
  if (!parts) return uri;
  const [, rawScheme, authority, rawPath, query, fragment] = parts;
  const scheme = rawScheme?.toLowerCase();
  let path = normalizePercentEncoding(rawPath);
  // Dot-segments only mean "parent"/"this" in a hierarchical path; in a rootless path
  // (urn:a/../b, mailto:) removing them would change what the URI names.
  if (authority !== undefined || path.startsWith("/")) path = removeDotSegments(path);
  if (authority !== undefined && path === "" && scheme !== undefined && ROOTED_SCHEMES.has(scheme)) path = "/";
  let out = scheme === undefined ? "" : `${scheme}:`;
  if (authority !== undefined) out += `//${normalizeAuthority(authority, scheme ?? "")}`;
  out += path;
  if (query !== undefined) out += `?${normalizePercentEncoding(query)}`;
  if (fragment !== undefined) out += `#${normalizePercentEncoding(fragment)}`;
  return out;
}
