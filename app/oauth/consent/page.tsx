import type { Metadata } from "next";
import { headers } from "next/headers";
import { connection } from "next/server";
import { ConsentForm } from "@/components/oauth/consent-form";
import { AuthPage } from "@/components/shell/auth-page";
import { CONSENT_DECIDE_PATH, consentRequest, pageIssuer } from "@/lib/oauth/consent";
import { consentingUserId } from "@/lib/oauth/sign-in-bridge";

export const metadata: Metadata = { title: "Allow access" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/**
 * Whose the app is: the host of its metadata document's URL, which the app cannot fake; or, for
 * a registered client, that its name is its own claim — anyone may register under any name.
 */
function whoItIs(request: { clientName: string; clientHost: string | null }): string {
  return request.clientHost ? `It is the app of ${request.clientHost}.` : `"${request.clientName}" is the name the app gave itself (unverified).`;
}

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
  if (request.resourceMissing) {
    return (
      <AuthPage title="Which MCP server?" description={`${request.clientName} did not say which MCP server it wants.`}>
        <p className="text-sm">
          Apps must name it with the <code>resource</code> parameter, as the MCP authorization specification requires. Give the app the server&apos;s URL (…/mcp/&lt;server&gt;) and start again from the app.
        </p>
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
    <AuthPage title={`Allow ${request.clientName}?`} description={`${whoItIs(request)} It will be sent back to ${request.redirectHost}.`}>
      <ConsentForm action={CONSENT_DECIDE_PATH} oauthQuery={request.oauthQuery} offer={request.offer} />
    </AuthPage>
  );
}
