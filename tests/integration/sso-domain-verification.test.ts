import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { startSsoSignIn } from "@/lib/sso/start-sso-sign-in";
import { api } from "@/tests/helpers/api";
import { createTenant, uniqueSuffix, type Tenant } from "@/tests/helpers/factories";
import { startDnsServer, type DnsServer } from "@/tests/helpers/dns-server";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";

/**
 * Issue 13 point 6, "email domains it owns": an org proves a domain by a DNS TXT record, looked up
 * at a real DNS server on 127.0.0.1 (SSO_DNS_SERVERS). Until then the domain signs nobody in, and
 * a pending claim never blocks the real owner.
 */

let app: RouteServer;
let dns: DnsServer;

beforeAll(async () => {
  app = await startRouteServer();
  dns = await startDnsServer();
  // The test's DNS server, which holds the TXT records (a default install asks the system's resolvers).
  process.env.SSO_DNS_SERVERS = dns.address;
});
afterAll(async () => {
  delete process.env.SSO_DNS_SERVERS;
  await dns?.close();
  await app?.close();
});

interface Verification { domain: string; status: string; verifiedAt: string | null; record: { type: string; name: string; value: string } }

async function claim(t: Tenant, domains: string[]): Promise<Verification[]> {
  const body = { issuer: "https://idp.example.com", clientId: "switchboard", clientSecret: "s3cret", domains, joinNewUsers: true };
  const put = await api(t.owner.token).put(`/api/v1/orgs/${t.org.id}/sso`, body);
  expect(put.status).toBe(200);
  return put.body.domainVerifications;
}

const verify = (t: Tenant, domain: string) => api(t.owner.token).post(`/api/v1/orgs/${t.org.id}/sso/domains/${domain}/verify`, {});

describe("SSO domain verification by DNS TXT record", () => {
  it("a new domain starts unverified with the record to publish; the right record verifies it (audited)", async () => {
    const t = await createTenant();
    const domain = `acme-${uniqueSuffix()}.example`;
    const [pending] = await claim(t, [domain]);
    expect(pending).toMatchObject({ domain, status: "unverified", verifiedAt: null, record: { type: "TXT", name: `_switchboard-challenge.${domain}` } });
    expect(pending.record.value).toMatch(/^switchboard-domain-verification=[0-9a-f]{32}$/);
    expect((await api(t.admin.token).get(`/api/v1/orgs/${t.org.id}/sso`)).body.domainVerifications).toEqual([pending]);
    expect(await startSsoSignIn({ email: `ada@${domain}`, callbackPath: "/" })).toEqual({ ok: false, code: "SsoNotConfigured" });

    dns.setTxt(pending.record.name, ["v=spf1 -all", pending.record.value]);
    const verified = await verify(t, domain);
    expect(verified.status).toBe(200);
    expect(verified.body.domainVerifications[0]).toMatchObject({ domain, status: "verified", record: pending.record });
    expect(verified.body.domainVerifications[0].verifiedAt).not.toBeNull();
    expect(await db().auditEvent.count({ where: { orgId: t.org.id, action: "org.sso.domain.verify" } })).toBe(1);
    // Saving the settings again keeps the domain verified, with the same record.
    expect((await claim(t, [domain]))[0]).toMatchObject({ status: "verified", record: pending.record });
  });

  it("a record with another value, and no record at all, are 422 with what to do; nothing changes", async () => {
    const t = await createTenant();
    const domain = `wrong-${uniqueSuffix()}.example`;
    const [pending] = await claim(t, [domain]);
    const missing = await verify(t, domain);
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toBe(`No TXT record found at ${pending.record.name}. Publish ${pending.record.value} there (DNS changes can take a few minutes) and try again.`);
    dns.setTxt(pending.record.name, ["switchboard-domain-verification=someone-elses-token"]);
    const wrong = await verify(t, domain);
    expect(wrong.status).toBe(422);
    expect(wrong.body.detail).toContain("does not match");
    expect(wrong.body.detail).toContain(pending.record.value);
    expect((await api(t.admin.token).get(`/api/v1/orgs/${t.org.id}/sso`)).body.domainVerifications[0].status).toBe("unverified");
  });

  it("an unreachable DNS server is a 422 asking to try again", async () => {
    const t = await createTenant();
    const domain = `nodns-${uniqueSuffix()}.example`;
    await claim(t, [domain]);
    const closed = await startDnsServer();
    await closed.close();
    // A DNS server nobody listens on: the case under test.
    process.env.SSO_DNS_SERVERS = closed.address;
    try {
      const answer = await verify(t, domain);
      expect(answer.status).toBe(422);
      expect(answer.body.detail).toContain("Could not look up the TXT record");
      expect(answer.body.detail).toContain("try again");
    } finally {
      // Back to the test's DNS server.
      process.env.SSO_DNS_SERVERS = dns.address;
    }
  }, 20_000);

  it("two orgs claim the same domain: the one that verifies wins, the other is refused clearly", async () => {
    const [squatter, owner] = [await createTenant(), await createTenant()];
    const domain = `contested-${uniqueSuffix()}.example`;
    await claim(squatter, [domain]);
    const [pending] = await claim(owner, [domain]);
    dns.setTxt(pending.record.name, [pending.record.value]);
    // The squatter cannot verify with the owner's record: its own token is another.
    expect((await verify(squatter, domain)).status).toBe(422);
    expect((await verify(owner, domain)).status).toBe(200);

    const late = await verify(squatter, domain);
    expect(late.status).toBe(409);
    expect(late.body.detail).toBe(`The domain ${domain} was verified by another organization first and signs in there; remove it from your list.`);
    const resaved = await api(squatter.owner.token).put(`/api/v1/orgs/${squatter.org.id}/sso`, { issuer: "https://idp.example.com", clientId: "x", domains: [domain], joinNewUsers: true });
    expect(resaved.status).toBe(409);
    expect(resaved.body.detail).toContain(domain);
    const third = await createTenant();
    expect((await api(third.owner.token).put(`/api/v1/orgs/${third.org.id}/sso`, { issuer: "https://idp.example.com", clientId: "x", clientSecret: "s", domains: [domain], joinNewUsers: true })).status).toBe(409);
  });

  it("a domain the org has not claimed is 404, like another org's", async () => {
    const [t, other] = [await createTenant(), await createTenant()];
    const domain = `mine-${uniqueSuffix()}.example`;
    await claim(t, [domain]);
    await claim(other, [`theirs-${uniqueSuffix()}.example`]);
    expect((await verify(other, domain)).status).toBe(404);
    expect((await verify(t, `unclaimed-${uniqueSuffix()}.example`)).status).toBe(404);
  });
});
