import { z } from "zod";
import { endpoint } from "@/lib/api/endpoint";
import { Id } from "@/lib/schemas/common";
import { EmailDomain, PutSsoBody, SsoSettings } from "@/lib/sso/schemas";

const tag = "Single sign-on";
const orgParams = z.object({ orgId: Id });
// The domain of the path is the one in `domainVerifications`, lower-case.
const domainParams = z.object({ orgId: Id, domain: EmailDomain });

export const ssoEndpoints = {
  getOrgSso: endpoint({ operationId: "getOrgSso", method: "GET", path: "/orgs/{orgId}/sso", tag, summary: "Get the organization's single sign-on (404 when it has none)", params: orgParams, response: SsoSettings }),
  putOrgSso: endpoint({ operationId: "setOrgSso", method: "PUT", path: "/orgs/{orgId}/sso", tag, summary: "Set up or change the organization's single sign-on by OIDC (owners only: 403 for an admin, who can read it)", params: orgParams, body: PutSsoBody, response: SsoSettings }),
  verifyOrgSsoDomain: endpoint({
    operationId: "verifyOrgSsoDomain",
    method: "POST",
    path: "/orgs/{orgId}/sso/domains/{domain}/verify",
    tag,
    summary: "Verify an SSO email domain by its DNS TXT record (owners only; 422: no or wrong record, DNS not reachable; 409: another org verified it first)",
    params: domainParams,
    response: SsoSettings,
    conflict: "Another organization verified the domain first",
  }),
  deleteOrgSso: endpoint({ operationId: "deleteOrgSso", method: "DELETE", path: "/orgs/{orgId}/sso", tag, summary: "Turn single sign-on off for the organization and forget its provider (owners only)", params: orgParams, status: 204 }),
};
