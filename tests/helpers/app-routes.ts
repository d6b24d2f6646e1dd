/**
 * The route modules under app/, matched the way Next.js matches them (static segments before
 * dynamic ones, catch-alls last, route groups ignored), for tests that call route handlers directly.
 */
export type RouteHandler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
export type RouteModule = Partial<Record<string, RouteHandler>>;

// A glob skips dot folders unless the pattern names one: /.well-known/ is one (app/.well-known).
const modules = import.meta.glob<RouteModule>(["/app/**/route.ts", "/app/.well-known/**/route.ts"]);

interface Route {
  pattern: RegExp;
  names: string[];
  load: () => Promise<RouteModule>;
  dynamicCount: number;
  /** A `[...name]` segment: Next tries these after every other route. */
  catchAll: boolean;
}

const routes: Route[] = Object.entries(modules)
  .map(([file, load]) => {
    const segments = file.replace(/^\/app/, "").replace(/\/route\.ts$/, "").split("/").filter(Boolean);
    const names: string[] = [];
    const pattern = segments
      .filter((s) => !/^\(.*\)$/.test(s))
      .map((s) => {
        const dynamic = s.match(/^\[(?:\.\.\.)?(\w+)\]$/);
        if (!dynamic) return "/" + s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        names.push(dynamic[1]);
        return s.startsWith("[...") ? "/(.+)" : "/([^/]+)";
      })
      .join("");
    return { pattern: new RegExp(`^${pattern}/?$`), names, load, dynamicCount: names.length, catchAll: segments.some((s) => s.startsWith("[...")) };
  })
  .sort((a, b) => Number(a.catchAll) - Number(b.catchAll) || a.dynamicCount - b.dynamicCount);

/** The handler for `method` on `pathname` with its decoded params; `handler` is undefined for 405. */
export async function matchRoute(
  method: string,
  pathname: string,
): Promise<{ handler: RouteHandler | undefined; params: Record<string, string> } | null> {
  const route = routes.find((r) => r.pattern.test(pathname));
  if (!route) return null;
  const match = pathname.match(route.pattern)!;
  const params = Object.fromEntries(route.names.map((n, i) => [n, decodeURIComponent(match[i + 1])]));
  return { handler: (await route.load())[method], params };
}
