import http from "node:http";
import type net from "node:net";
import { randomBytes } from "node:crypto";
import zlib from "node:zlib";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { callerFromBearer } from "@/lib/auth/resolve-bearer";
import { callTool } from "@/lib/connectors/pipeline/call-tool";
import type { ToolCallResult } from "@/lib/connectors/runtime/types";
import { resolveCallerView } from "@/lib/mcp/visibility/resolve-view";
import { api } from "@/tests/helpers/api";
import { createTenant } from "@/tests/helpers/factories";

/**
 * The http tool's outbound connections (lib/connectors/runtime/http-exchange.ts): calls to
 * one API reuse a kept-alive connection instead of opening one each, a connection the API
 * closed while idle costs the next call nothing (it is retried on a fresh one), and an answer
 * the API compressed without being asked is still read as what it says.
 * A compressed answer too large (or not decodable) closes its connection instead of keeping
 * it checked out half-read.
 */

let server: http.Server;
/** Server-side sockets of the compressed answers too large to read, and whether each closed. */
const bigAnswers: Array<{ closed: boolean }> = [];
let origin: string;
/** The client port of each request received: equal ports, one connection. */
const ports: number[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    ports.push(req.socket.remotePort!);
    req.resume();
    req.on("end", () => {
      const record = JSON.stringify({ path: req.url, n: ports.length });
      if (req.url?.startsWith("/big-gzip") || req.url?.startsWith("/bad-gzip")) {
        const seen = { closed: false };
        bigAnswers.push(seen);
        req.socket.once("close", () => (seen.closed = true));
        // Random bytes do not compress: megabytes on the wire, more than socket buffers hold.
        const answer = req.url.startsWith("/big") ? zlib.gzipSync(randomBytes(4 * 1024 * 1024)) : Buffer.concat([zlib.gzipSync("{}").subarray(0, 10), randomBytes(4 * 1024 * 1024)]);
        res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" }).end(answer);
        return;
      }
      if (req.url?.startsWith("/gzip")) {
        res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" }).end(zlib.gzipSync(record));
        return;
      }
      res.writeHead(200, { "content-type": "application/json" }).end(record);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
});
afterEach(() => vi.unstubAllEnvs());
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function setup() {
  const t = await createTenant();
  const connector = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
    name: "Records",
    type: "http",
    config: { baseUrl: origin },
    tools: [{ name: "get", inputSchema: { type: "object", properties: { path: { type: "string" } } }, request: { method: "GET", path: "/{path}" } }],
  });
  expect(connector.status, connector.text).toBe(201);
  const created = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "S", connectorIds: [connector.body.id] });
  expect(created.status, created.text).toBe(201);
  const caller = (await callerFromBearer(t.member.token))!;
  return async (path: string): Promise<ToolCallResult> => {
    const view = (await resolveCallerView(caller, created.body.id))!;
    return callTool({ caller, view, tool: view.toolsByExposedName.get("get")!, args: { path } });
  };
}

describe("http tool connections", () => {
  it("consecutive calls to one API travel over one kept-alive connection", async () => {
    const call = await setup();
    const before = ports.length;
    for (const path of ["a", "b", "c", "d"]) expect((await call(path)).structuredContent).toMatchObject({ path: `/${path}` });
    const used = ports.slice(before);
    expect(used).toHaveLength(4);
    expect(new Set(used).size).toBe(1);
  });

  it("a kept-alive connection the API closed while idle: the next call still succeeds", async () => {
    const call = await setup();
    expect((await call("first")).isError).toBeUndefined();
    server.closeIdleConnections(); // the API drops the idle connection, as servers do after their keep-alive timeout
    const result = await call("second");
    expect(result.isError, JSON.stringify(result)).toBeUndefined();
    expect(result.structuredContent).toMatchObject({ path: "/second" });
  });

  it("an answer compressed without being asked for is decoded", async () => {
    const call = await setup();
    const result = await call("gzip");
    expect(result.isError, JSON.stringify(result)).toBeUndefined();
    expect(result.structuredContent).toMatchObject({ path: "/gzip" });
  });

  it.each(["big-gzip", "bad-gzip"])("a compressed answer too large or undecodable (%s) closes its connection; the next call succeeds", async (path) => {
    // A 1 KiB cap (default 5 MiB) so a small compressed answer inflates past it.
    vi.stubEnv("HTTP_TOOL_MAX_RESPONSE_BYTES", "1024");
    const call = await setup();
    const failed = await call(path);
    expect(failed.isError).toBe(true);
    // Not left half-read and checked out: the connection is closed.
    await vi.waitFor(() => expect(bigAnswers.at(-1)?.closed).toBe(true), { timeout: 3_000 });
    vi.unstubAllEnvs();
    const result = await call("gzip");
    expect(result.isError, JSON.stringify(result)).toBeUndefined();
    expect(result.structuredContent).toMatchObject({ path: "/gzip" });
  });
});
