import http from "node:http";
import type net from "node:net";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFromBearer } from "@/lib/auth/resolve-bearer";
import { callTool } from "@/lib/connectors/runtime/call-tool";
import type { ToolCallResult } from "@/lib/connectors/runtime/types";
import { resolveCallerView } from "@/lib/mcp/visibility/resolve-view";
import { api } from "@/tests/helpers/api";
import { createTenant } from "@/tests/helpers/factories";

/**
 * The http tool's outbound connections (lib/connectors/runtime/http-exchange.ts): calls to
 * one API reuse a kept-alive connection instead of opening one each, a connection the API
 * closed while idle costs the next call nothing (it is retried on a fresh one), and an answer
 * the API compressed without being asked is still read as what it says.
 */

let server: http.Server;
let origin: string;
/** The client port of each request received: equal ports, one connection. */
const ports: number[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    ports.push(req.socket.remotePort!);
    req.resume();
    req.on("end", () => {
      const record = JSON.stringify({ path: req.url, n: ports.length });
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
});
