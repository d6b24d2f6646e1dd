"use client";

import { useState } from "react";
import { applyResult } from "@/components/forms/apply-result";
import { Button } from "@/components/ui/button";
import { CodeBlock } from "@/components/ui/code-block";
import type { SsoDomainVerificationView, SsoSettingsView } from "@/lib/sso/sso-connections";
import { verifySsoDomainAction } from "@/app/(admin)/orgs/[orgId]/settings/sso-actions";
import { SsoDomainBadge } from "@/app/(admin)/orgs/[orgId]/settings/sso-read-only";

/**
 * Each email domain of the org's single sign-on with its status; an unverified one shows the
 * TXT record to publish and a Verify button (the same operation as POST …/verify).
 */
export function SsoDomains({ orgId, domains, onVerified }: { orgId: string; domains: SsoDomainVerificationView[]; onVerified: (sso: SsoSettingsView) => void }) {
  const [busy, setBusy] = useState<string | null>(null);
  async function verify(domain: string) {
    setBusy(domain);
    const result = await verifySsoDomainAction(orgId, domain);
    setBusy(null);
    if (applyResult(result, { success: `${domain} is verified` })) onVerified(result.data);
  }
  if (domains.length === 0) return null;
  return (
    <section aria-labelledby="sso-domains-title" className="grid gap-3">
      <h3 id="sso-domains-title" className="text-sm font-medium">Domain verification</h3>
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        A domain signs people in only once verified: publish its TXT record at your DNS provider, then press Verify. The first organization to verify a domain holds it.
      </p>
      <ul className="grid gap-3">
        {domains.map((d) => (
          <li key={d.domain} className="grid min-w-0 gap-2 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <span className="flex min-w-0 items-center gap-2">
                <span className="truncate font-mono text-sm">{d.domain}</span>
                <SsoDomainBadge status={d.status} />
              </span>
              {d.status === "unverified" && (
                <Button type="button" size="sm" variant="outline" disabled={busy !== null} onClick={() => verify(d.domain)} aria-label={`Verify ${d.domain}`}>
                  {busy === d.domain ? "Verifying…" : "Verify"}
                </Button>
              )}
            </div>
            {d.status === "unverified" && (
              <>
                <CodeBlock code={d.record.name} label={`TXT record name for ${d.domain}`} />
                <CodeBlock code={d.record.value} label={`TXT record value for ${d.domain}`} />
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
