/**
 * The route modules under app/, matched the way Next.js matches them (tests/helpers/route-patterns.ts),
 * for tests that call route handlers directly.
 */
import { byNextPrecedence, routeParams, routePattern, type RoutePattern } from "@/tests/helpers/route-patterns";
export type RouteHandler = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
export type RouteModule = Partial<Record<string, RouteHandler>>;

// A glob skips dot folders unless the pattern names one: /.well-known/ is one (app/.well-known).
const modules = import.meta.glob<RouteModule>(["/app/**/route.ts", "/app/.well-known/**/route.ts"]);

type Route = RoutePattern & { load: () => Promise<RouteModule> };

const routes: Route[] = Object.entries(modules)
  .map(([file, load]) => ({ ...routePattern(file.replace(/^\/app/, "").replace(/\/route\.ts$/, "").split("/")), load }))
  .sort(byNextPrecedence);

/** The handler for `method` on `pathname` with its decoded params; `handler` is undefined for 405. */
export async function matchRoute(
  method: string,
  pathname: string,
): Promise<{ handler: RouteHandler | undefined; params: Record<string, string | string[]> } | null> {
  const route = routes.find((r) => r.pattern.test(pathname));
  if (!route) return null;
  return { handler: (await route.load())[method], params: routeParams(route, pathname) };
}
