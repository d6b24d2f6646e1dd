import { z } from "zod";

/** An email domain: lower-case host names, at least two labels, no scheme or path. */
export const EmailDomain = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/, "Enter a domain such as example.com.");

const Issuer = z
  .url({ protocol: /^https?$/, error: "Enter the issuer URL of your identity provider." })
  .max(2048)
  .transform((url) => url.replace(/\/+$/, ""));

export const PutSsoBody = z
  .object({
    issuer: Issuer,
    clientId: z.string().trim().min(1, "Enter the client ID.").max(512),
    /** Required when single sign-on is first set up; left out, the stored secret is kept. */
    clientSecret: z.string().min(1).max(4096).optional(),
    domains: z.array(EmailDomain).min(1, "Name at least one email domain.").max(50),
    joinNewUsers: z.boolean(),
    /** Left out: false when single sign-on is first set up, else the stored choice is kept. */
    acceptEmailWithoutVerifiedClaim: z.boolean().optional(),
    enabled: z.boolean().default(true),
  })
  .meta({
    id: "PutSso",
    description:
      "The organization's OIDC identity provider. `domains`: the email domains it owns; a new one starts unverified (see SsoDomainVerification), and one another organization has verified is refused. " +
      "`joinNewUsers`: whether a person of those domains without an account joins as a member on first sign-in (else they are refused). " +
      "`acceptEmailWithoutVerifiedClaim`: false (the default) signs someone in only when the provider says `email_verified: true`; true also accepts a provider that sends no `email_verified` at all (Entra ID sends none). `email_verified: false` is refused either way; omit it to keep the stored choice. " +
      "`clientSecret` is stored encrypted and never returned; omit it to keep the stored one.",
  });
export type PutSsoBody = z.infer<typeof PutSsoBody>;

export const SsoDomainVerification = z
  .object({
    domain: z.string(),
    status: z.enum(["unverified", "verified"]),
    verifiedAt: z.iso.datetime().nullable(),
    /** The DNS record that proves the organization owns the domain. */
    record: z.object({ type: z.literal("TXT"), name: z.string(), value: z.string() }),
  })
  .meta({
    id: "SsoDomainVerification",
    description:
      "An email domain starts unverified and signs nobody in until verified: publish `record` (TXT at `_switchboard-challenge.<domain>`) " +
      "and call `POST /orgs/{orgId}/sso/domains/{domain}/verify`. Several organizations may have a domain pending; the first to verify it holds it.",
  });

export const SsoSettings = z
  .object({
    orgId: z.string(),
    issuer: z.string(),
    clientId: z.string(),
    clientSecretSet: z.boolean(),
    domains: z.array(z.string()),
    /** Per domain of `domains` (same order): whether it is verified, and the record that proves it. */
    domainVerifications: z.array(SsoDomainVerification),
    joinNewUsers: z.boolean(),
    acceptEmailWithoutVerifiedClaim: z.boolean(),
    enabled: z.boolean(),
    /** What to register at the identity provider as the redirect (callback) URI. */
    redirectUri: z.string(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "SsoSettings" });
