import http from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { INSTANCE_KEY } from "@/tests/helpers/factories";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";

/**
 * Issue 10, point 6: an admin JSON body over API_MAX_BODY_BYTES, sent chunked (no
 * Content-Length to refuse it by), gets 413 and leaves the keep-alive connection usable: a
 * little excess is read and dropped, a lot closes the connection with `Connection: close`, so a
 * keep-alive client's next request is answered at once either way (it waited ~6 s for the idle
 * timeout, then failed). tests/e2e/http-hardening.test.ts measures the same against `next start`.
 */

let app: RouteServer;
let agent: http.Agent;
beforeAll(async () => {
  app = await startRouteServer();
});
afterAll(() => app.close());
afterEach(() => {
  agent?.destroy();
  delete process.env.API_MAX_BODY_BYTES;
});

interface Sent {
  status: number;
  headers: http.IncomingHttpHeaders;
  reusedSocket: boolean;
  ms: number;
}

/** One request through the keep-alive agent; `chunks` are written one by one (chunked encoding). */
function send(method: string, path: string, chunks: string[] = []): Promise<Sent> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(`${app.origin}${path}`, {
      method,
      agent,
      headers: { authorization: `Bearer ${INSTANCE_KEY}`, ...(chunks.length ? { "content-type": "application/json" } : {}) },
    });
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, reusedSocket: req.reusedSocket, ms: performance.now() - started }));
    });
    req.on("error", reject);
    req.setTimeout(10_000, () => req.destroy(new Error("no answer within 10 s")));
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

const bigBody = (bytes: number) => [`{"name":"`, ..."x".repeat(bytes).match(/.{1,16384}/g)!, `"}`];

describe("413 for a chunked admin body over the limit, then the next request on that connection", () => {
  it("a little over the limit: 413, the body is drained and the same connection answers the next request at once", async () => {
    // A 1 KiB limit (default 1 MiB) so the bodies over it stay small.
    process.env.API_MAX_BODY_BYTES = "1024";
    agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    expect((await send("GET", "/api/v1/orgs")).status).toBe(200);
    const refused = await send("POST", "/api/v1/orgs", bigBody(64 * 1024));
    expect(refused.status).toBe(413);
    expect(refused.headers["content-type"]).toContain("application/problem+json");
    const next = await send("GET", "/api/v1/orgs");
    expect(next).toMatchObject({ status: 200, reusedSocket: true });
    expect(next.ms).toBeLessThan(1_000);
  });

  it("far over the limit: 413 with Connection: close, and the client's next request is answered at once", async () => {
    // A 1 KiB limit (default 1 MiB) so the bodies over it stay small.
    process.env.API_MAX_BODY_BYTES = "1024";
    agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const refused = await send("POST", "/api/v1/orgs", bigBody(3 * 1024 * 1024));
    expect(refused.status).toBe(413);
    expect(refused.headers.connection).toBe("close");
    const next = await send("GET", "/api/v1/orgs");
    expect(next.status).toBe(200);
    expect(next.ms).toBeLessThan(1_000);
  });
});
