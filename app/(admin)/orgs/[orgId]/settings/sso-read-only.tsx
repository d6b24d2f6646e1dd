import { Badge } from "@/components/ui/badge";
import { CodeBlock } from "@/components/ui/code-block";
import type { SsoDomainVerificationView, SsoSettingsView } from "@/lib/sso/sso-connections";

export const SSO_OWNER_ONLY_LINE = "Only an owner of the organization can change single sign-on.";

const yesNo = (value: boolean) => (value ? "Yes" : "No");

/** A domain's verification, as both the owner's form and the admin's read-only view show it. */
export function SsoDomainBadge({ status }: { status: SsoDomainVerificationView["status"] }) {
  return <Badge tone={status === "verified" ? "success" : "warning"}>{status === "verified" ? "Verified" : "Not verified"}</Badge>;
}

/**
 * The org's single sign-on as an admin sees it: read, not changed. Whoever sets the provider can
 * sign in as the people of its domains, owners included, so only an owner changes it.
 */
export function SsoReadOnly({ sso, redirectUri }: { sso: SsoSettingsView | null; redirectUri: string }) {
  return (
    <div className="grid gap-4 text-sm">
      <p className="text-zinc-600 dark:text-zinc-400">{SSO_OWNER_ONLY_LINE}</p>
      {!sso ? (
        <p>Single sign-on is not set up.</p>
      ) : (
        <>
          <CodeBlock code={redirectUri} label="Redirect URI registered at the identity provider" />
          <dl className="grid gap-2 sm:grid-cols-[14rem_1fr]">
            <dt className="font-medium">Issuer URL</dt>
            <dd className="break-all">{sso.issuer}</dd>
            <dt className="font-medium">Client ID</dt>
            <dd className="break-all">{sso.clientId}</dd>
            <dt className="font-medium">New people join as members</dt>
            <dd>{yesNo(sso.joinNewUsers)}</dd>
            <dt className="font-medium">Accepts sign-ins without an email_verified claim</dt>
            <dd>{yesNo(sso.acceptEmailWithoutVerifiedClaim)}</dd>
            <dt className="font-medium">Single sign-on is on</dt>
            <dd>{yesNo(sso.enabled)}</dd>
          </dl>
          <ul className="grid gap-2" aria-label="Email domains">
            {sso.domainVerifications.map((d) => (
              <li key={d.domain} className="flex items-center gap-2">
                <span className="font-mono">{d.domain}</span>
                <SsoDomainBadge status={d.status} />
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
