import { Prisma } from "@/lib/generated/prisma/client";
import { db } from "@/lib/db/client";

/**
 * The Prisma client better-auth's adapter uses. better-auth writes `null` for an absent optional
 * list or JSON value; Prisma 7 refuses a bare null for a Json column ("must not be null"), so it
 * becomes Prisma.DbNull (SQL NULL) here. Our optional lists are Json columns for the same reason.
 */
// The Json columns of the better-auth models (prisma/schema.prisma).
const JSON_FIELDS = new Set([
  "OauthClient.scopes",
  "OauthClient.clientCredentialsScopes",
  "OauthClient.contacts",
  "OauthClient.postLogoutRedirectUris",
  "OauthClient.grantTypes",
  "OauthClient.responseTypes",
  "OauthClient.metadata",
  "OauthResource.allowedScopes",
  "OauthResource.customClaims",
  "OauthResource.metadata",
  "OauthClientResource.metadata",
  "OauthRefreshToken.resources",
  "OauthRefreshToken.requestedUserInfoClaims",
  "OauthRefreshToken.confirmation",
  "OauthAccessToken.resources",
  "OauthAccessToken.requestedUserInfoClaims",
  "OauthAccessToken.confirmation",
  "OauthConsent.resources",
  "OauthConsent.requestedUserInfoClaims",
]);

function nullsToDbNull(model: string, data: unknown): void {
  if (!data || typeof data !== "object") return;
  for (const [key, value] of Object.entries(data)) {
    if (value === null && JSON_FIELDS.has(`${model}.${key}`)) (data as Record<string, unknown>)[key] = Prisma.DbNull;
  }
}

export function authDatabase() {
  return db().$extends({
    query: {
      $allModels: {
        async $allOperations({ model, args, query }) {
          const withData = args as { data?: unknown; create?: unknown; update?: unknown };
          for (const part of [withData.data, withData.create, withData.update]) {
            for (const row of Array.isArray(part) ? part : [part]) nullsToDbNull(model, row);
          }
          return query(args);
        },
      },
    },
  });
}
