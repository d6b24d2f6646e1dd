import type { Metadata } from "next";
import { headers } from "next/headers";
import { connection } from "next/server";
import { ConsentForm } from "@/components/oauth/consent-form";
import { AuthPage } from "@/components/shell/auth-page";
import { CONSENT_DECIDE_PATH, consentRequest, pageIssuer } from "@/lib/oauth/consent";
import { consentingUserId } from "@/lib/oauth/sign-in-bridge";

export const metadata: Metadata = { title: "Allow access" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** The consent step of the OAuth authorization server (lib/oauth/consent.ts). */
export default async function ConsentPage({ searchParams }: { searchParams: SearchParams }) {
  await connection();
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(await searchParams)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) search.append(key, one);
  }
  const requestHeaders = await headers();
  const request = await consentRequest(search, await consentingUserId(requestHeaders), pageIssuer(requestHeaders));
  if (!request) {
    return (
      <AuthPage title="Allow access" description="This authorization request is not valid. Start again from the app.">
        <p className="text-sm">Nothing to allow.</p>
      </AuthPage>
    );
  }
  if (!request.offer) {
    return (
      <AuthPage title="Not found" description={`${request.clientName} asks for an MCP server that was not found, or that you cannot use.`}>
        <p className="text-sm">Check the server URL you gave the app, or ask an admin of its workspace for access.</p>
      </AuthPage>
    );
  }
  return (
    <AuthPage title={`Allow ${request.clientName}?`} description={`${request.clientHost ? `It is the app of ${request.clientHost}. ` : ""}It will be sent back to ${request.redirectHost}.`}>
      <ConsentForm action={CONSENT_DECIDE_PATH} oauthQuery={request.oauthQuery} offer={request.offer} />
    </AuthPage>
  );
}
