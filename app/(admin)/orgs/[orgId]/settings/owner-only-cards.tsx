import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { OrgRoleName } from "@/lib/orgs/member-guards";
import { roleAllows } from "@/lib/permissions/table";
import type { SsoSettingsView } from "@/lib/sso/sso-connections";
import { DeleteOrgButton } from "@/app/(admin)/orgs/[orgId]/settings/org-settings-form";
import { SsoForm } from "@/app/(admin)/orgs/[orgId]/settings/sso-form";
import { SsoReadOnly } from "@/app/(admin)/orgs/[orgId]/settings/sso-read-only";

/**
 * The parts of the settings page only an owner changes; the API refuses an admin (403) there,
 * so an admin is shown what it is rather than a form that cannot be saved.
 */

export function SsoCard({ role, orgId, sso, redirectUri }: { role: OrgRoleName; orgId: string; sso: SsoSettingsView | null; redirectUri: string }) {
  return (
    <Card aria-labelledby="org-sso">
      <CardHeader>
        <CardTitle id="org-sso">Single sign-on</CardTitle>
        <CardDescription>
          Let people of your email domains sign in with your identity provider instead of a password: any OpenID Connect provider with discovery.
        </CardDescription>
      </CardHeader>
      <CardContent>{roleAllows(role, "owners.manage") ? <SsoForm orgId={orgId} sso={sso} redirectUri={redirectUri} /> : <SsoReadOnly sso={sso} redirectUri={redirectUri} />}</CardContent>
    </Card>
  );
}

/** Only an owner may delete an organization: nobody else is shown the button. */
export function DeleteOrgCard({ role, org, version }: { role: OrgRoleName; org: { id: string; name: string }; version: string }) {
  if (!roleAllows(role, "org.owner_settings")) return null;
  return (
    <Card aria-labelledby="org-danger" className="border-red-300 dark:border-red-900">
      <CardHeader>
        <CardTitle id="org-danger">Delete this organization</CardTitle>
        <CardDescription>
          Deletes every workspace, connector, MCP server, role, skill, file and API key in it. MCP clients using it stop working at once.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <DeleteOrgButton org={org} version={version} />
      </CardContent>
    </Card>
  );
}
