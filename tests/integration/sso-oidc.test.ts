import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { sessionCookieName } from "@/lib/auth/session-token";
import { startSsoSignIn, SSO_STATE_COOKIE } from "@/lib/sso/start-sso-sign-in";
import { api } from "@/tests/helpers/api";
import { messageForSignInError } from "@/lib/auth/sign-in-messages";
import { createTenant, makeMember, type Tenant, uniqueSuffix } from "@/tests/helpers/factories";
import { startIdp, type Idp } from "@/tests/helpers/oidc-idp";
import { startDnsServer, type DnsServer } from "@/tests/helpers/dns-server";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";

/**
 * Issue 13 point 6 against a real OpenID provider (oidc-provider on 127.0.0.1): an organization
 * names its provider and the email domains it owns; people of those domains sign in there and
 * come back signed in here — new people as members, or refused, as the org chose.
 */

let app: RouteServer;
let idp: Idp;
let dns: DnsServer;

beforeAll(async () => {
  app = await startRouteServer();
  // PUBLIC_URL: where the IdP is told the SSO callback is (a default install has none).
  process.env.PUBLIC_URL = app.origin;
  idp = await startIdp(`${app.origin}/api/auth/sso/callback`);
  dns = await startDnsServer();
  // The test's DNS server, which holds the domain's TXT record (a default install asks the system's resolvers).
  process.env.SSO_DNS_SERVERS = dns.address;
});
afterAll(async () => {
  delete process.env.PUBLIC_URL;
  delete process.env.SSO_DNS_SERVERS;
  await dns?.close();
  await idp?.close();
  await app?.close();
});

/** A browser: follows redirects by hand, keeping each origin's cookies. */
class Browser {
  private jar = new Map<string, Map<string, string>>();

  setCookie(origin: string, name: string, value: string): void {
    if (!this.jar.has(origin)) this.jar.set(origin, new Map());
    this.jar.get(origin)!.set(name, value);
  }

  cookie(origin: string, name: string): string | undefined {
    return this.jar.get(origin)?.get(name);
  }

  /** One GET with this origin's cookies, keeping the cookies it sets. */
  async get(url: string): Promise<{ status: number; location: string | null }> {
    const target = new URL(url);
    const cookies = [...(this.jar.get(target.origin) ?? new Map())].map(([k, v]) => `${k}=${v}`).join("; ");
    const res = await fetch(target, { redirect: "manual", headers: cookies ? { cookie: cookies } : {} });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair.indexOf("=");
      this.setCookie(target.origin, pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    const location = res.headers.get("location");
    return { status: res.status, location: location && new URL(location, target).origin !== target.origin ? new URL(location, target).toString() : location };
  }

  /** Follows redirects from `url` until the next one goes to `origin`: that URL, not fetched. */
  async walkUntil(url: string, origin: string): Promise<string> {
    for (let hop = 0, next = url; hop < 20; hop++) {
      const { status, location } = await this.get(next);
      if (!location) throw new Error(`stopped at ${status} ${next}`);
      next = new URL(location, next).toString();
      if (new URL(next).origin === origin) return next;
    }
    throw new Error("too many redirects");
  }
}

/** Saves the org's SSO; its domains are then verified as an admin would: TXT record published, Verify. */
async function saveAndVerify(t: Tenant, provider: Idp, domains: string[], joinNewUsers: boolean, extra: { acceptEmailWithoutVerifiedClaim?: boolean } = {}) {
  const saved = await api(t.owner.token).put(`/api/v1/orgs/${t.org.id}/sso`, { issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret, domains, joinNewUsers, ...extra });
  if (saved.status !== 200) return saved;
  for (const { domain, record } of saved.body.domainVerifications as { domain: string; record: { name: string; value: string } }[]) {
    dns.setTxt(record.name, [record.value]);
    const verified = await api(t.owner.token).post(`/api/v1/orgs/${t.org.id}/sso/domains/${domain}/verify`, {});
    if (verified.status !== 200) return verified;
  }
  return api(t.admin.token).get(`/api/v1/orgs/${t.org.id}/sso`);
}

const configureSso = (t: Tenant, domain: string, joinNewUsers: boolean) => saveAndVerify(t, idp, [domain], joinNewUsers);

/** Starts sign-in for `email` as the sign-in page does, then walks the provider back to us. */
async function signInBySso(email: string, subject: string, callbackPath = "/", origin?: string) {
  const started = await startSsoSignIn({ email, callbackPath, origin });
  if (!started.ok) return { started, status: 0, location: null as string | null, session: undefined as string | undefined };
  const browser = new Browser();
  browser.setCookie(app.origin, SSO_STATE_COOKIE, started.state);
  idp.signInAs(subject);
  const callback = await browser.get(await browser.walkUntil(started.url, app.origin));
  return { started, ...callback, session: browser.cookie(app.origin, sessionCookieName()) };
}

const me = (session: string, orgId: string) => api(null).get(`/api/v1/orgs/${orgId}`, { headers: { cookie: `${sessionCookieName()}=${session}` } });

describe("single sign-on by OIDC", () => {
  it("a new person of an owned domain joins the org as a member on first sign-in, and is signed in", async () => {
    const t = await createTenant();
    const domain = `join-${uniqueSuffix()}.example`;
    const saved = await configureSso(t, domain, true);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ domains: [domain], joinNewUsers: true, acceptEmailWithoutVerifiedClaim: false, clientSecretSet: true, redirectUri: `${app.origin}/api/auth/sso/callback` });
    expect(JSON.stringify(saved.body)).not.toContain(idp.clientSecret);
    const stored = await db().ssoConnection.findFirstOrThrow({ where: { orgId: t.org.id } });
    expect(stored.clientSecretEncrypted).not.toContain(idp.clientSecret);

    idp.accounts.set("ada-1", { email: `ada@${domain}`, email_verified: true, name: "Ada" });
    const result = await signInBySso(`ada@${domain}`, "ada-1", "/orgs");
    expect(result.status).toBe(302);
    expect(result.location).toBe("/orgs");
    expect((await me(result.session!, t.org.id)).status).toBe(200);
    const user = await db().user.findUniqueOrThrow({ where: { email: `ada@${domain}` }, select: { id: true, name: true, passwordHash: true } });
    expect(user).toMatchObject({ name: "Ada", passwordHash: null });
    expect(await db().orgMember.findFirst({ where: { orgId: t.org.id, userId: user.id }, select: { role: true } })).toEqual({ role: "member" });
  });

  it("when the org does not let new people join, a new person is refused and no account is made", async () => {
    const t = await createTenant();
    const domain = `closed-${uniqueSuffix()}.example`;
    expect((await configureSso(t, domain, false)).status).toBe(200);
    idp.accounts.set("bob-1", { email: `bob@${domain}`, email_verified: true });
    const result = await signInBySso(`bob@${domain}`, "bob-1");
    expect(result.location).toBe("/signin?error=SsoNotMember");
    expect(result.session).toBeUndefined();
    expect(await db().user.count({ where: { email: `bob@${domain}` } })).toBe(0);
  });

  it("an existing member signs in (and only with the same subject afterwards)", async () => {
    const t = await createTenant();
    const domain = `member-${uniqueSuffix()}.example`;
    expect((await configureSso(t, domain, false)).status).toBe(200);
    const email = `cy@${domain}`;
    await db().user.update({ where: { id: t.member.user.id }, data: { email } });
    idp.accounts.set("cy-1", { email, email_verified: true });
    const first = await signInBySso(email, "cy-1");
    expect(first.location).toBe("/");
    expect((await me(first.session!, t.org.id)).status).toBe(200);
    idp.accounts.set("cy-impostor", { email, email_verified: true });
    expect((await signInBySso(email, "cy-impostor")).location).toBe("/signin?error=SsoFailed");
  });

  it("an existing owner, or a member of another org, is never linked by SSO the first time: the org's provider cannot become them", async () => {
    const [t, other] = [await createTenant(), await createTenant()];
    const domain = `takeover-${uniqueSuffix()}.example`;
    expect((await configureSso(t, domain, false)).status).toBe(200);
    // An owner whose email is in the domain: the provider (whoever configured it) vouches for it.
    const ownerEmail = `owner@${domain}`;
    await db().user.update({ where: { id: t.owner.user.id }, data: { email: ownerEmail } });
    idp.accounts.set("owner-forged", { email: ownerEmail, email_verified: true });
    const asOwner = await signInBySso(ownerEmail, "owner-forged");
    expect(asOwner.location).toBe("/signin?error=SsoLinkRefused");
    expect(asOwner.session).toBeUndefined();
    expect(messageForSignInError("SsoLinkRefused")).toContain("Sign in with your password");
    // A plain member here who also belongs to another organization: same refusal.
    const email = `both@${domain}`;
    await db().user.update({ where: { id: t.member.user.id }, data: { email } });
    await makeMember({ orgId: other.org.id }, { user: t.member.user, role: "member", workspace: false });
    idp.accounts.set("both-1", { email, email_verified: true });
    expect((await signInBySso(email, "both-1")).location).toBe("/signin?error=SsoLinkRefused");
    // The instance owner, a plain member here: signs in with the password, never by SSO.
    const root = await makeMember({ orgId: t.org.id }, { role: "member", workspace: false, email: `root@${domain}`, isInstanceOwner: true });
    idp.accounts.set("root-1", { email: root.email, email_verified: true });
    expect((await signInBySso(root.email, "root-1")).location).toBe("/signin?error=SsoLinkRefused");
    expect(await db().account.count({ where: { userId: { in: [t.owner.user.id, t.member.user.id, root.id] }, providerId: { startsWith: "sso:" } } })).toBe(0);
  });

  it("an account already linked to the subject keeps signing in after it becomes an owner", async () => {
    const t = await createTenant();
    const domain = `linked-${uniqueSuffix()}.example`;
    expect((await configureSso(t, domain, false)).status).toBe(200);
    const email = `kim@${domain}`;
    await db().user.update({ where: { id: t.member.user.id }, data: { email } });
    idp.accounts.set("kim-1", { email, email_verified: true });
    expect((await signInBySso(email, "kim-1")).location).toBe("/");
    await db().orgMember.updateMany({ where: { orgId: t.org.id, userId: t.member.user.id }, data: { role: "owner" } });
    const again = await signInBySso(email, "kim-1");
    expect(again.location).toBe("/");
    expect((await me(again.session!, t.org.id)).status).toBe(200);
  });

  it("an account already linked that has a password and then joins another organization is refused by SSO; one the provider made keeps signing in (issue 23)", async () => {
    const [t, other] = [await createTenant(), await createTenant()];
    const domain = `linked-elsewhere-${uniqueSuffix()}.example`;
    expect((await configureSso(t, domain, true)).status).toBe(200);
    // A member with a password, linked while a member of this org only.
    const email = `lee@${domain}`;
    await db().user.update({ where: { id: t.member.user.id }, data: { email, passwordHash: "scrypt$placeholder" } });
    idp.accounts.set("lee-1", { email, email_verified: true });
    expect((await signInBySso(email, "lee-1")).location).toBe("/");
    await makeMember({ orgId: other.org.id }, { user: t.member.user, role: "admin", workspace: false });
    const refused = await signInBySso(email, "lee-1");
    expect(refused.location).toBe("/signin?error=SsoLinkRefused");
    expect(refused.session).toBeUndefined();
    // A person the provider made (no password: the provider is their only way in), invited elsewhere since.
    idp.accounts.set("mo-1", { email: `mo@${domain}`, email_verified: true });
    expect((await signInBySso(`mo@${domain}`, "mo-1")).location).toBe("/");
    const mo = await db().user.findUniqueOrThrow({ where: { email: `mo@${domain}` }, select: { id: true } });
    await makeMember({ orgId: other.org.id }, { user: mo, role: "member", workspace: false });
    const again = await signInBySso(`mo@${domain}`, "mo-1");
    expect(again.location).toBe("/");
    expect((await me(again.session!, other.org.id)).status).toBe(200);
  });

  it("without PUBLIC_URL (a default install) the provider sends the person back to the address their browser used, and the sign-in completes there (issue 21)", async () => {
    const t = await createTenant();
    const domain = `default-${uniqueSuffix()}.example`;
    expect((await configureSso(t, domain, true)).status).toBe(200);
    idp.accounts.set("dee-1", { email: `dee@${domain}`, email_verified: true });
    const saved = process.env.PUBLIC_URL;
    delete process.env.PUBLIC_URL;
    try {
      // The sign-in page's origin (127.0.0.1:<port>): the configured default would be localhost:3000, where nothing answers.
      const result = await signInBySso(`dee@${domain}`, "dee-1", "/", app.origin);
      expect(result.started).toMatchObject({ ok: true });
      expect(new URL((result.started as { url: string }).url).searchParams.get("redirect_uri")).toBe(`${app.origin}/api/auth/sso/callback`);
      expect(result.location).toBe("/");
      expect((await me(result.session!, t.org.id)).status).toBe(200);
    } finally {
      // PUBLIC_URL back to the file's value (set in beforeAll, which says why).
      process.env.PUBLIC_URL = saved;
    }
  });

  it("a person renamed at the provider keeps their account: the subject, not the new email, names it", async () => {
    const t = await createTenant();
    const domain = `renamed-${uniqueSuffix()}.example`;
    expect((await configureSso(t, domain, true)).status).toBe(200);
    const email = `jane.doe@${domain}`;
    await db().user.update({ where: { id: t.member.user.id }, data: { email } });
    idp.accounts.set("jane-1", { email, email_verified: true });
    expect((await signInBySso(email, "jane-1")).location).toBe("/");
    // Renamed at the provider: the same subject comes with another email of the domain.
    idp.accounts.set("jane-1", { email: `jane.smith@${domain}`, email_verified: true });
    const renamed = await signInBySso(`jane.smith@${domain}`, "jane-1");
    expect(renamed.location).toBe("/");
    expect((await me(renamed.session!, t.org.id)).status).toBe(200);
    expect(await db().user.count({ where: { email: `jane.smith@${domain}` } })).toBe(0);
    expect(await db().account.count({ where: { providerId: { startsWith: "sso:" }, accountId: "jane-1" } })).toBe(1);
    // The subject linked to Jane never takes over another member whose email it is given.
    await db().user.update({ where: { id: t.admin.user.id }, data: { email: `boss@${domain}` } });
    idp.accounts.set("jane-1", { email: `boss@${domain}`, email_verified: true });
    await signInBySso(`boss@${domain}`, "jane-1");
    expect(await db().account.count({ where: { userId: t.admin.user.id, providerId: { startsWith: "sso:" } } })).toBe(0);
  });

  it("an email outside the org's domains is refused, even when the provider vouches for it", async () => {
    const t = await createTenant();
    const domain = `owned-${uniqueSuffix()}.example`;
    expect((await configureSso(t, domain, true)).status).toBe(200);
    idp.accounts.set("eve-1", { email: `eve@not-owned-${uniqueSuffix()}.example`, email_verified: true });
    const result = await signInBySso(`eve@${domain}`, "eve-1");
    expect(result.location).toBe("/signin?error=SsoDomainNotAllowed");
    expect(result.session).toBeUndefined();
  });

  it("only VERIFIED domains sign in: a pending domain's email is refused at start and at the callback", async () => {
    const t = await createTenant();
    const [verified, pending] = [`proved-${uniqueSuffix()}.example`, `pending-${uniqueSuffix()}.example`];
    expect((await configureSso(t, verified, true)).status).toBe(200);
    const both = { issuer: idp.issuer, clientId: idp.clientId, domains: [verified, pending], joinNewUsers: true };
    const saved = await api(t.owner.token).put(`/api/v1/orgs/${t.org.id}/sso`, both);
    expect(saved.body.domainVerifications.map((d: { status: string }) => d.status)).toEqual(["unverified", "verified"]);
    expect(await startSsoSignIn({ email: `gil@${pending}`, callbackPath: "/" })).toEqual({ ok: false, code: "SsoNotConfigured" });
    // The provider vouches for an email of the pending domain: still not this org's to sign in.
    idp.accounts.set("gil-1", { email: `gil@${pending}`, email_verified: true });
    const refused = await signInBySso(`gil@${verified}`, "gil-1");
    expect(refused.location).toBe("/signin?error=SsoDomainNotAllowed");
    expect(refused.session).toBeUndefined();
    expect(await db().user.count({ where: { email: `gil@${pending}` } })).toBe(0);
    idp.accounts.set("hal-1", { email: `hal@${verified}`, email_verified: true });
    expect((await signInBySso(`hal@${verified}`, "hal-1")).location).toBe("/");
  });

  it("a domain no org owns has no single sign-on; a domain another org owns cannot be claimed", async () => {
    for (const email of [`x@nobody-${uniqueSuffix()}.example`, "no-at-sign", "x@nul\u0000.example", "x@\ud800.example"]) {
      expect(await startSsoSignIn({ email, callbackPath: "/" }), email).toEqual({ ok: false, code: "SsoNotConfigured" });
    }
    const [a, b] = [await createTenant(), await createTenant()];
    const domain = `taken-${uniqueSuffix()}.example`;
    expect((await configureSso(a, domain, true)).status).toBe(200);
    const claimed = await configureSso(b, domain, true);
    expect(claimed.status).toBe(409);
    expect(claimed.body.detail).toContain(domain);
  });

  it("an unverified email, a callback without this browser's state cookie, and a replayed callback are refused", async () => {
    const t = await createTenant();
    const domain = `unverified-${uniqueSuffix()}.example`;
    expect((await configureSso(t, domain, true)).status).toBe(200);
    idp.accounts.set("dan-1", { email: `dan@${domain}`, email_verified: false });
    expect((await signInBySso(`dan@${domain}`, "dan-1")).location).toBe("/signin?error=SsoEmailUnverified");

    idp.accounts.set("fay-1", { email: `fay@${domain}`, email_verified: true });
    const started = await startSsoSignIn({ email: `fay@${domain}`, callbackPath: "/" });
    if (!started.ok) throw new Error("not started");
    const browser = new Browser();
    idp.signInAs("fay-1");
    const callback = await browser.walkUntil(started.url, app.origin);
    // No state cookie: another browser's sign-in (login CSRF) is not finished here.
    expect((await browser.get(callback)).location).toBe("/signin?error=SsoFailed");
    browser.setCookie(app.origin, SSO_STATE_COOKIE, started.state);
    expect((await browser.get(callback)).location).toBe("/");
    // The state is spent: the same answer replayed, cookie and all, signs nobody in.
    browser.setCookie(app.origin, SSO_STATE_COOKIE, started.state);
    expect((await browser.get(callback)).location).toBe("/signin?error=SsoFailed");
  });

  it("a provider that sends no email_verified: refused unless the org accepts that (audited); false is refused either way", async () => {
    const t = await createTenant();
    const domain = `unstated-${uniqueSuffix()}.example`;
    expect((await configureSso(t, domain, true)).status).toBe(200);
    idp.accounts.set("ian-1", { email: `ian@${domain}` });
    expect((await signInBySso(`ian@${domain}`, "ian-1")).location).toBe("/signin?error=SsoEmailUnverified");
    expect(await db().user.count({ where: { email: `ian@${domain}` } })).toBe(0);

    const body = { issuer: idp.issuer, clientId: idp.clientId, domains: [domain], joinNewUsers: true, acceptEmailWithoutVerifiedClaim: true };
    const changed = await api(t.owner.token).put(`/api/v1/orgs/${t.org.id}/sso`, body);
    expect(changed.body.acceptEmailWithoutVerifiedClaim).toBe(true);
    const audit = await db().auditEvent.findFirstOrThrow({ where: { orgId: t.org.id, action: "org.sso.update" }, orderBy: { createdAt: "desc" } });
    expect(audit.data).toMatchObject({ acceptEmailWithoutVerifiedClaim: true });
    // Left out of a later save, the choice is kept.
    const { acceptEmailWithoutVerifiedClaim: _kept, ...withoutChoice } = body;
    expect((await api(t.owner.token).put(`/api/v1/orgs/${t.org.id}/sso`, withoutChoice)).body.acceptEmailWithoutVerifiedClaim).toBe(true);
    expect((await signInBySso(`ian@${domain}`, "ian-1")).location).toBe("/");

    idp.accounts.set("jo-1", { email: `jo@${domain}`, email_verified: false });
    expect((await signInBySso(`jo@${domain}`, "jo-1")).location).toBe("/signin?error=SsoEmailUnverified");
  });

  it("admins read it, only owners change it (403 for an admin); a plain member and another org's admin get 404, as for a missing org", async () => {
    const [t, other] = [await createTenant(), await createTenant()];
    const domain = `manage-${uniqueSuffix()}.example`;
    expect((await api(t.admin.token).get(`/api/v1/orgs/${t.org.id}/sso`)).status).toBe(404);
    const body = { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, domains: [domain], joinNewUsers: false };
    const adminPut = await api(t.admin.token).put(`/api/v1/orgs/${t.org.id}/sso`, body);
    expect(adminPut.status).toBe(403);
    expect(adminPut.body.detail).toBe("Only an owner of the organization can change its single sign-on.");
    expect(await db().ssoConnection.count({ where: { orgId: t.org.id } })).toBe(0);
    expect((await configureSso(t, domain, false)).status).toBe(200);
    expect((await api(t.admin.token).get(`/api/v1/orgs/${t.org.id}/sso`)).status).toBe(200);
    expect((await api(t.admin.token).put(`/api/v1/orgs/${t.org.id}/sso`, { ...body, joinNewUsers: true })).status).toBe(403);
    expect((await api(t.admin.token).delete(`/api/v1/orgs/${t.org.id}/sso`)).status).toBe(403);
    // A domain the admin adds through the owner still needs the owner to verify it.
    const pending = `pending-${uniqueSuffix()}.example`;
    const saved = await api(t.owner.token).put(`/api/v1/orgs/${t.org.id}/sso`, { ...body, domains: [domain, pending] });
    const record = saved.body.domainVerifications.find((d: { domain: string }) => d.domain === pending).record;
    dns.setTxt(record.name, [record.value]);
    expect((await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/sso/domains/${pending}/verify`, {})).status).toBe(403);
    expect(await db().ssoDomain.findFirstOrThrow({ where: { orgId: t.org.id, domain: pending }, select: { verifiedAt: true } })).toEqual({ verifiedAt: null });
    expect((await db().ssoConnection.findFirstOrThrow({ where: { orgId: t.org.id }, select: { joinNewUsers: true } })).joinNewUsers).toBe(false);
    expect((await api(t.member.token).get(`/api/v1/orgs/${t.org.id}/sso`)).status).toBe(404);
    expect((await api(other.admin.token).get(`/api/v1/orgs/${t.org.id}/sso`)).status).toBe(404);
    expect((await api(other.owner.token).delete(`/api/v1/orgs/${t.org.id}/sso`)).status).toBe(404);
    expect((await api(t.owner.token).delete(`/api/v1/orgs/${t.org.id}/sso`)).status).toBe(204);
    expect((await api(t.admin.token).get(`/api/v1/orgs/${t.org.id}/sso`)).status).toBe(404);
  });
});

describe("single sign-on with the email in userinfo only", () => {
  let bare: Idp;
  beforeAll(async () => void (bare = await startIdp(`${app.origin}/api/auth/sso/callback`, { emailInIdToken: false })));
  afterAll(() => bare?.close());

  async function orgOnBareProvider(joinNewUsers = true, acceptEmailWithoutVerifiedClaim = false) {
    const t = await createTenant();
    const domain = `userinfo-${uniqueSuffix()}.example`;
    expect((await saveAndVerify(t, bare, [domain], joinNewUsers, { acceptEmailWithoutVerifiedClaim })).status).toBe(200);
    return { t, domain };
  }

  async function signInAtBare(email: string, subject: string) {
    const started = await startSsoSignIn({ email, callbackPath: "/" });
    if (!started.ok) throw new Error("sign-in did not start");
    const browser = new Browser();
    browser.setCookie(app.origin, SSO_STATE_COOKIE, started.state);
    bare.signInAs(subject);
    const callback = await browser.get(await browser.walkUntil(started.url, app.origin));
    return { ...callback, session: browser.cookie(app.origin, sessionCookieName()) };
  }

  it("an ID token without the email: it is read from userinfo, and the person joins and is signed in", async () => {
    const { t, domain } = await orgOnBareProvider();
    bare.accounts.set("uma-1", { email: `uma@${domain}`, email_verified: true, name: "Uma" });
    const result = await signInAtBare(`uma@${domain}`, "uma-1");
    expect(result.location).toBe("/");
    expect((await me(result.session!, t.org.id)).status).toBe(200);
    expect(await db().user.findFirst({ where: { email: `uma@${domain}` }, select: { name: true } })).toEqual({ name: "Uma" });
  });

  it("userinfo saying email_verified false is refused; saying nothing about it needs the org's choice", async () => {
    const { domain } = await orgOnBareProvider();
    bare.accounts.set("val-1", { email: `val@${domain}`, email_verified: false });
    expect((await signInAtBare(`val@${domain}`, "val-1")).location).toBe("/signin?error=SsoEmailUnverified");
    expect(await db().user.count({ where: { email: `val@${domain}` } })).toBe(0);
    bare.accounts.set("wes-1", { email: `wes@${domain}` });
    expect((await signInAtBare(`wes@${domain}`, "wes-1")).location).toBe("/signin?error=SsoEmailUnverified");
    const accepting = await orgOnBareProvider(true, true);
    bare.accounts.set("wyn-1", { email: `wyn@${accepting.domain}` });
    expect((await signInAtBare(`wyn@${accepting.domain}`, "wyn-1")).location).toBe("/");
    bare.accounts.set("vic-1", { email: `vic@${accepting.domain}`, email_verified: false });
    expect((await signInAtBare(`vic@${accepting.domain}`, "vic-1")).location).toBe("/signin?error=SsoEmailUnverified");
  });

  it("the userinfo email must still be in the org's domains", async () => {
    const { domain } = await orgOnBareProvider();
    bare.accounts.set("xan-1", { email: `xan@elsewhere-${uniqueSuffix()}.example`, email_verified: true });
    expect((await signInAtBare(`xan@${domain}`, "xan-1")).location).toBe("/signin?error=SsoDomainNotAllowed");
  });
});
