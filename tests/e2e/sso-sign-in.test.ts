import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser } from "playwright-core";
import { db } from "@/lib/db/client";
import { freePort } from "@/lib/net/free-port";
import { ensureBuild, type RunningApp, startApp } from "@/tests/e2e/support/next-app";
import { launchBrowser, newContext, signIn } from "@/tests/e2e/support/browser";
import { type SeededAdmin, seedAdmin } from "@/tests/e2e/support/seed";
import { uniqueSuffix } from "@/tests/helpers/factories";
import { startIdp, type Idp } from "@/tests/helpers/oidc-idp";
import { startDnsServer, type DnsServer } from "@/tests/helpers/dns-server";

/**
 * Issue 13 point 6 against the production build, with Chromium: an owner sets up single sign-on
 * on the organization's settings page and verifies the domain by its DNS TXT record (a real DNS
 * server on 127.0.0.1), then a new person of the domain signs in with "Use
 * single sign-on (SSO)" at a real OpenID provider and lands in the console as a member.
 */

let app: RunningApp;
let browser: Browser;
let admin: SeededAdmin;
let idp: Idp;
let dns: DnsServer;

beforeAll(async () => {
  await ensureBuild();
  const port = await freePort();
  idp = await startIdp(`http://127.0.0.1:${port}/api/auth/sso/callback`);
  dns = await startDnsServer();
  [app, browser, admin] = await Promise.all([
    // PUBLIC_URL: where the IdP was told the SSO callback is (port picked above); SSO_DNS_SERVERS: the DNS server holding the domain's TXT record.
    startApp({ databaseUrl: inject("databaseUrl"), port, env: { PUBLIC_URL: `http://127.0.0.1:${port}`, SSO_DNS_SERVERS: dns.address } }),
    launchBrowser(),
    seedAdmin(),
  ]);
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await idp?.close();
  await dns?.close();
});

describe("single sign-on in the browser", () => {
  it("an owner sets it up on the settings page; a new person of the domain signs in by SSO and joins as a member", async () => {
    const domain = `sso-${uniqueSuffix()}.example`;
    const ownerContext = await newContext(browser, app.baseUrl);
    const page = await ownerContext.newPage();
    await signIn(page, admin.email, admin.password);
    await page.goto(`/orgs/${admin.org.id}/settings`);
    const card = page.getByRole("region", { name: "Single sign-on" }).or(page.locator("[aria-labelledby=org-sso]"));
    await card.getByLabel("Issuer URL").fill(idp.issuer);
    await card.getByLabel("Client ID").fill(idp.clientId);
    await card.getByLabel("Client secret").fill(idp.clientSecret);
    await card.getByLabel("Email domains").fill(domain);
    await card.getByLabel("New people join as members").check();
    await card.getByRole("button", { name: "Save" }).click();
    await page.getByText("Single sign-on saved").waitFor();
    // Not verified yet: the page shows the TXT record to publish; once it is published, Verify.
    const recordName = card.getByRole("figure", { name: `TXT record name for ${domain}` }).locator("code");
    const recordValue = card.getByRole("figure", { name: `TXT record value for ${domain}` }).locator("code");
    dns.setTxt(await recordName.innerText(), [await recordValue.innerText()]);
    await card.getByRole("button", { name: `Verify ${domain}` }).click();
    await page.getByText(`${domain} is verified`).waitFor();
    await card.getByText("Verified", { exact: true }).waitFor();
    await ownerContext.close();

    const email = `grace@${domain}`;
    idp.accounts.set("grace-1", { email, email_verified: true, name: "Grace" });
    idp.signInAs("grace-1");
    const personContext = await newContext(browser, app.baseUrl);
    const person = await personContext.newPage();
    await person.goto("/signin");
    await person.getByLabel("Email").fill(email);
    await person.getByRole("button", { name: "Use single sign-on (SSO)" }).click();
    await person.getByRole("navigation", { name: "Main" }).waitFor();
    const user = await db().user.findUniqueOrThrow({ where: { email }, select: { id: true } });
    expect(await db().orgMember.findFirst({ where: { orgId: admin.org.id, userId: user.id }, select: { role: true } })).toEqual({ role: "member" });

    // Someone of a domain no organization signs in with is told so on the page.
    await person.context().clearCookies();
    await person.goto("/signin");
    await person.getByLabel("Email").fill(`nobody@elsewhere-${uniqueSuffix()}.example`);
    await person.getByRole("button", { name: "Use single sign-on (SSO)" }).click();
    await person.getByText("Single sign-on is not set up for that email domain").waitFor();
    await personContext.close();
  });
});
