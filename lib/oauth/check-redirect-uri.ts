/**
 * Redirect URIs no client may register, by dynamic registration or in a Client ID Metadata
 * Document, whatever its application type. better-auth 1.7.5 refuses script, data and file URLs
 * itself; the private-use schemes of native apps (lib/oauth/native-registration.ts) let any other
 * scheme through, so the ones a browser treats as its own are named here: a code sent to
 * `intent:` (Android's browser-internal scheme), `chrome:` or `view-source:` would be handed to the
 * browser or another app, not to the client that asked.
 */

const REFUSED_SCHEMES = new Set([
  "javascript:",
  "data:",
  "vbscript:",
  "file:",
  "blob:",
  "about:",
  "intent:",
  "chrome:",
  "chrome-extension:",
  "edge:",
  "brave:",
  "opera:",
  "resource:",
  "jar:",
  "filesystem:",
  "view-source:",
  "ws:",
  "wss:",
  "ftp:",
  "mailto:",
]);

/**
 * The scheme the registration of a private-use URI is stood in by. Reserved: a client naming it
 * could otherwise be given another URI of the same registration back.
 */
export const STAND_IN_SCHEME_PREFIX = "app.switchboard.stand-in";

/** Why `uri` may not be registered as a redirect URI, or null when nothing here refuses it. */
export function redirectUriRefusal(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return null; // not a URL: better-auth's own validation answers that
  }
  if (REFUSED_SCHEMES.has(url.protocol)) return `The redirect URI scheme ${url.protocol} is refused: ${uri}`;
  if (url.protocol.startsWith(STAND_IN_SCHEME_PREFIX)) return `The redirect URI scheme ${url.protocol} is reserved by this server: ${uri}`;
  return null;
}

/** The first refusal among `uris`, or null. */
export function redirectUrisRefusal(uris: readonly string[]): string | null {
  for (const uri of uris) {
    const refusal = redirectUriRefusal(uri);
    if (refusal) return refusal;
  }
  return null;
}
