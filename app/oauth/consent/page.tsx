import type { Metadata } from "next";
import { connection } from "next/server";
import { AuthPage } from "@/components/shell/auth-page";
import { Button } from "@/components/ui/button";
import { CONSENT_DECIDE_PATH, consentRequest } from "@/lib/oauth/consent";

export const metadata: Metadata = { title: "Allow access" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** SPIKE: the minimal consent step of the OAuth authorization server (lib/oauth/consent.ts). */
export default async function ConsentPage({ searchParams }: { searchParams: SearchParams }) {
  await connection();
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(await searchParams)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) search.append(key, one);
  }
  const request = await consentRequest(search);
  if (!request) {
    return (
      <AuthPage title="Allow access" description="This authorization request is not valid. Start again from the app." >
        <p className="text-sm">Nothing to allow.</p>
      </AuthPage>
    );
  }
  return (
    <AuthPage title={`Allow ${request.clientName}?`} description={`It will be sent back to ${request.redirectHost}.`}>
      <p className="mb-2 text-sm">
        It asks for: {request.scopes.join(", ") || "access"}
        {request.resource ? ` to ${request.resource}` : ""}.
      </p>
      <form method="post" action={CONSENT_DECIDE_PATH} className="flex gap-2">
        <input type="hidden" name="oauth_query" value={request.oauthQuery} />
        <Button type="submit" name="decision" value="allow">Allow</Button>
        <Button type="submit" name="decision" value="deny" variant="outline">Deny</Button>
      </form>
    </AuthPage>
  );
}
