/**
 * The HTML document of an MCP App as the console's sandboxed iframe runs it (issue 25 point 3).
 * The iframe is `srcdoc`, so it inherits the console page's Content-Security-Policy: its
 * scripts run only with that page's nonce, which is put on the app's own <script> tags (the
 * frame is sandboxed without same-origin, so its code never reaches the console's DOM,
 * cookies or storage). The app's declared `_meta.ui.csp` is added as a second policy, so
 * it is enforced too: both must allow a load.
 */

type Csp = { connectDomains?: unknown; resourceDomains?: unknown; frameDomains?: unknown; baseUriDomains?: unknown };

/** An origin an app may name in its CSP; anything else (quotes, `;`, spaces) is dropped, so a domain cannot add directives. */
const ORIGIN = /^(https?|wss?):\/\/[A-Za-z0-9*.-]+(:\d+)?$/;

function origins(value: unknown): string {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && ORIGIN.test(v)).join(" ") : "";
}

/** The policy the MCP Apps specification gives a view: its declared domains, nothing else. */
export function appPolicy(csp: Csp | undefined): string {
  const resources = origins(csp?.resourceDomains);
  const connect = origins(csp?.connectDomains);
  const frames = origins(csp?.frameDomains);
  const bases = origins(csp?.baseUriDomains);
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline' ${resources}`.trim(),
    `style-src 'unsafe-inline' ${resources}`.trim(),
    `img-src data: ${resources}`.trim(),
    `font-src data: ${resources}`.trim(),
    `media-src data: ${resources}`.trim(),
    `connect-src ${connect || "'none'"}`,
    `frame-src ${frames || "'none'"}`,
    `base-uri ${bases || "'none'"}`,
  ].join("; ");
}

const escapeAttribute = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;");

/** The app's HTML with its policy first in <head> and the console page's nonce on its scripts. */
export function appDocument(html: string, ui: Record<string, unknown> | null, nonce: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(appPolicy(ui?.csp as Csp | undefined))}">`;
  const nonced = html.replace(/<script\b/gi, `<script nonce="${escapeAttribute(nonce)}"`);
  return /<head\b[^>]*>/i.test(nonced) ? nonced.replace(/<head\b[^>]*>/i, (head) => `${head}${meta}`) : `${meta}${nonced}`;
}
