import { rawPathProblem } from "@/lib/api/validate-text";

/**
 * Next.js decodes dynamic route segments before any handler of ours runs and answers an escape
 * that is not UTF-8 (`/mcp/%C0%AE%C0%AE`) with a bare 500; the proxy (proxy.ts) sees the raw
 * path first and answers here instead: a JSON-RPC error on the MCP endpoints, problem+json
 * elsewhere. Built without lib/api/problem.ts so the proxy bundle carries no logger.
 */
export function badUrlResponse(rawPathname: string): Response | null {
  const problem = rawPathProblem(rawPathname);
  if (!problem) return null;
  if (rawPathname === "/mcp" || rawPathname.startsWith("/mcp/")) {
    return Response.json({ jsonrpc: "2.0", id: null, error: { code: -32600, message: problem } }, { status: 400, headers: { "cache-control": "no-store" } });
  }
  const body = { type: "https://switchboard.dev/problems/bad-request", title: "Bad request", status: 400, detail: problem };
  return new Response(JSON.stringify(body), { status: 400, headers: { "content-type": "application/problem+json" } });
}
