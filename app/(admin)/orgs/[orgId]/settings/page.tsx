import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { orNotFound, requireOrgAdmin } from "@/app/(admin)/_lib/context";
import { getOrgOrThrow } from "@/lib/orgs/orgs";
import { roleAllows } from "@/lib/permissions/table";
import { etagOf } from "@/lib/api/if-match";
import { OrgSettingsForm } from "@/app/(admin)/orgs/[orgId]/settings/org-settings-form";
import { ToolAuditForm } from "@/app/(admin)/orgs/[orgId]/settings/tool-audit-form";
import { AuditRetentionForm } from "@/app/(admin)/orgs/[orgId]/settings/audit-retention-form";
import { pruneIntervalPhrase } from "@/lib/audit/prune-audit-events";
import { DeleteOrgCard, SsoCard } from "@/app/(admin)/orgs/[orgId]/settings/owner-only-cards";
import { findOrgSso, ssoRedirectUri } from "@/lib/sso/sso-connections";

export const metadata: Metadata = { title: "Organization settings" };

export default async function OrgSettingsPage({ params }: { params: Promise<{ orgId: string }> }) {
  const { org: context, caller } = await requireOrgAdmin((await params).orgId);
  // The organization as the API answers it: the forms save against its version (ETag).
  const org = await orNotFound(getOrgOrThrow(caller, context.id));
  const version = etagOf(org);
  const sso = await findOrgSso(caller, context.id);
  return (
    <div className="mx-auto grid max-w-2xl gap-6">
      <PageHeader title="Organization settings" description={`Name, slug and audit settings of ${org.name}.`} />
      <Card aria-labelledby="org-general">
        <CardHeader>
          <CardTitle id="org-general">General</CardTitle>
        </CardHeader>
        <CardContent>
          <OrgSettingsForm org={{ id: org.id, name: org.name, slug: org.slug }} version={version} />
        </CardContent>
      </Card>
      <Card aria-labelledby="org-tool-audit">
        <CardHeader>
          <CardTitle id="org-tool-audit">Audit log of tool calls</CardTitle>
          <CardDescription>
            Every tool call is recorded in the audit log, which every owner and admin of the organization can read. Choose what those records keep.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <ToolAuditForm org={{ id: org.id, toolAuditDetail: org.toolAuditDetail }} version={version} canChange={roleAllows(context.role, "org.owner_settings")} />
        </CardContent>
      </Card>
      <Card aria-labelledby="org-audit-retention-title">
        <CardHeader>
          <CardTitle id="org-audit-retention-title">Audit retention</CardTitle>
          <CardDescription>
            How long the audit log keeps its events. Shortening it deletes older history for every owner and admin, so only an owner can change it.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <AuditRetentionForm
            org={{ id: org.id, auditRetentionDays: org.auditRetentionDays }}
            version={version}
            canChange={roleAllows(context.role, "org.owner_settings")}
            pruneEvery={pruneIntervalPhrase()}
          />
        </CardContent>
      </Card>
      <SsoCard role={context.role} orgId={org.id} sso={sso} redirectUri={ssoRedirectUri()} />
      <DeleteOrgCard role={context.role} org={{ id: org.id, name: org.name }} version={version} />
    </div>
  );
}
