import http from "node:http";
import type net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limitedFetch, OAuthFetchRefusedError } from "@/lib/connectors/upstream-auth/oauth-fetch";

/**
 * The OAuth client's fetch toward an upstream's authorization server follows a redirect only on
 * the same origin and only for a GET: a token request (code_verifier, refresh_token, client
 * secret in its body) is never re-sent elsewhere, nor in clear after an https → http downgrade.
 */

let origin: string;
let server: http.Server;
const seen: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const port = (server.address() as net.AddressInfo).port;
    if (req.url === "/moved") res.writeHead(302, { location: "/metadata" }).end();
    else if (req.url === "/to-https") res.writeHead(302, { location: `https://127.0.0.1:${port}/metadata` }).end();
    else if (req.url === "/token") res.writeHead(307, { location: "/token-elsewhere" }).end();
    else res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ at: req.url }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("the OAuth client's redirects", () => {
  it("a GET is followed on the same origin", async () => {
    const response = await limitedFetch(`${origin}/moved`);
    expect(await response.json()).toEqual({ at: "/metadata" });
  });

  it("a redirect to another scheme of the same host is refused", async () => {
    await expect(limitedFetch(`${origin}/to-https`)).rejects.toThrow(OAuthFetchRefusedError);
  });

  it("a POST (a token request) is not re-sent to where a redirect points, even on the same origin", async () => {
    seen.length = 0;
    const body = new URLSearchParams({ grant_type: "refresh_token", refresh_token: "rt-secret" });
    await expect(limitedFetch(`${origin}/token`, { method: "POST", body })).rejects.toThrow(OAuthFetchRefusedError);
    expect(seen).toEqual(["POST /token"]);
  });
});
