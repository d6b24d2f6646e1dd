import { describe, expect, it, vi } from "vitest";
import { createElement, type ContextType, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { AppRouterContext } from "next/dist/shared/lib/app-router-context.shared-runtime";
import type { SsoSettingsView } from "@/lib/sso/sso-connections";
import { DeleteOrgCard, SsoCard } from "@/app/(admin)/orgs/[orgId]/settings/owner-only-cards";

/**
 * The organization settings page's owner-only parts as each role sees them: deleting an
 * organization and changing its single sign-on are refused to admins (403), so an admin is not
 * offered them.
 */

// Next provides "server-only" to its server build; outside it the server actions these forms call load as plain modules.
vi.mock("server-only", () => ({}));

// DeleteButton navigates after a deletion: rendered, it only needs a router to be there.
const router = { back() {}, forward() {}, refresh() {}, push() {}, replace() {}, prefetch() {} } as unknown as ContextType<typeof AppRouterContext>;
const render = (element: ReactElement) => renderToStaticMarkup(createElement(AppRouterContext.Provider, { value: router }, element));

const org = { id: "00000000-0000-4000-8000-000000000001", name: "Acme" };
const sso: SsoSettingsView = {
  orgId: org.id,
  issuer: "https://login.acme.example",
  clientId: "switchboard-client",
  clientSecretSet: true,
  domains: ["acme.example"],
  domainVerifications: [{ domain: "acme.example", status: "verified", verifiedAt: new Date(), record: { type: "TXT", name: "_switchboard-challenge.acme.example", value: "switchboard-domain-verification=x" } }],
  joinNewUsers: true,
  acceptEmailWithoutVerifiedClaim: false,
  enabled: true,
  redirectUri: "https://switchboard.example/api/auth/sso/callback",
  createdAt: new Date(),
  updatedAt: new Date(),
};

describe("organization settings: what only an owner changes", () => {
  it("Delete organization is shown to an owner only", () => {
    expect(render(createElement(DeleteOrgCard, { role: "owner", org, version: '"1"' }))).toContain("Delete organization");
    for (const role of ["admin", "member"] as const) {
      expect(render(createElement(DeleteOrgCard, { role, org, version: '"1"' })), role).toBe("");
    }
  });

  it("an owner gets the single sign-on form; an admin sees the settings read-only with why", () => {
    const owner = render(createElement(SsoCard, { role: "owner", orgId: org.id, sso, redirectUri: sso.redirectUri }));
    expect(owner).toContain('id="sso-issuer"');
    expect(owner).toContain("Remove single sign-on");
    expect(owner).not.toContain("Only an owner of the organization can change single sign-on.");

    const admin = render(createElement(SsoCard, { role: "admin", orgId: org.id, sso, redirectUri: sso.redirectUri }));
    expect(admin).toContain("Only an owner of the organization can change single sign-on.");
    expect(admin).toContain("https://login.acme.example");
    expect(admin).toContain("switchboard-client");
    expect(admin).toContain("acme.example");
    expect(admin).not.toContain("<input");
    expect(admin).not.toContain("<form");
    expect(admin).not.toContain("Remove single sign-on");
    expect(render(createElement(SsoCard, { role: "admin", orgId: org.id, sso: null, redirectUri: sso.redirectUri }))).toContain("Single sign-on is not set up.");
  });
});
