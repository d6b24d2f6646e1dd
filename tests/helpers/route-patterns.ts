/**
 * How Next.js matches a URL to an app/ route folder, for the two test routers that serve route
 * handlers without Next (tests/helpers/app-routes.ts in vitest, app-instance-main.ts in a child
 * process): route groups ignored, static segments before dynamic ones, catch-alls last, and a
 * catch-all's parameter as its decoded segments.
 */

export interface RoutePattern {
  pattern: RegExp;
  names: string[];
  /** Per name: a `[...name]` segment. */
  catchAll: boolean[];
}

/** The pattern of a route folder, given as its path segments below app/. */
export function routePattern(segments: string[]): RoutePattern {
  const names: string[] = [];
  const catchAll: boolean[] = [];
  const pattern = segments
    .filter((s) => s && s !== "." && !/^\(.*\)$/.test(s))
    .map((s) => {
      const dynamic = s.match(/^\[(\.\.\.)?(\w+)\]$/);
      if (!dynamic) return "/" + s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(dynamic[2]);
      catchAll.push(Boolean(dynamic[1]));
      return dynamic[1] ? "/(.+)" : "/([^/]+)";
    })
    .join("");
  return { pattern: new RegExp(`^${pattern}/?$`), names, catchAll };
}

/** The order Next tries routes in: a catch-all after every other route, then fewer dynamic segments first. */
export function byNextPrecedence(a: RoutePattern, b: RoutePattern): number {
  return Number(a.catchAll.includes(true)) - Number(b.catchAll.includes(true)) || a.names.length - b.names.length;
}

/** The decoded parameters of `pathname` on `route` (which must match it). */
export function routeParams(route: RoutePattern, pathname: string): Record<string, string | string[]> {
  const match = pathname.match(route.pattern)!;
  return Object.fromEntries(route.names.map((name, i) => [name, route.catchAll[i] ? match[i + 1].split("/").map(decodeURIComponent) : decodeURIComponent(match[i + 1])]));
}
