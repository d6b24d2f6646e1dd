import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientCredentialsToken } from "@/lib/connectors/upstream-auth/client-credentials";
import { CC_CLIENT, startOAuthUpstream, type OAuthUpstream } from "@/tests/helpers/oauth-upstream";

/**
 * A client_credentials connector's machine token: concurrent calls that find no token (the
 * first calls, or all calls at its expiry) share one token request instead of making one each.
 */

let upstream: OAuthUpstream;
beforeAll(async () => {
  upstream = await startOAuthUpstream();
});
afterAll(async () => upstream?.close());

describe("client_credentials tokens", () => {
  it("ten concurrent calls without a token make one token request and all get its token", async () => {
    const settings = { connectorId: `cc-${Date.now()}`, tokenUrl: `${upstream.origin}/cc/token`, clientId: CC_CLIENT.id, clientSecret: CC_CLIENT.secret, version: 1 };
    const got = await Promise.all(Array.from({ length: 10 }, () => clientCredentialsToken(settings)));
    expect(upstream.ccRequests).toHaveLength(1);
    expect(new Set(got).size).toBe(1);
    // A forced renewal (after a 401) fetches anew, once for concurrent callers too.
    const renewed = await Promise.all(Array.from({ length: 5 }, () => clientCredentialsToken(settings, true)));
    expect(upstream.ccRequests).toHaveLength(2);
    expect(new Set(renewed)).toEqual(new Set([renewed[0]]));
    expect(renewed[0]).not.toBe(got[0]);
  });
});
