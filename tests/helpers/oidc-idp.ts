import http from "node:http";
import type net from "node:net";
import Provider from "oidc-provider";

/**
 * A real OpenID provider (`oidc-provider`) on 127.0.0.1 for single sign-on tests. Its login and
 * consent screens are replaced by `signInAs`: whoever the test names is signed in and consents,
 * so a test walks the real authorization-code flow without parsing HTML.
 */

export interface IdpAccount {
  email: string;
  email_verified?: boolean;
  name?: string;
}

export interface Idp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, IdpAccount>;
  /** The subject (`sub`) the next sign-in at the provider is. */
  signInAs(subject: string): void;
  close(): Promise<void>;
}

/** `emailInIdToken: false`: the ID token carries only `sub`, the email is in userinfo only (OIDC's own default). */
export async function startIdp(redirectUri: string, opts: { emailInIdToken?: boolean } = {}): Promise<Idp> {
  const accounts = new Map<string, IdpAccount>();
  let subject = "";
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  const clientId = "switchboard";
  const clientSecret = "idp-client-secret-for-tests";
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], grant_types: ["authorization_code"], response_types: ["code"] }],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // By default the ID token carries the email (as Google, Entra and Keycloak do), not only userinfo.
    conformIdTokenClaims: opts.emailInIdToken === false,
    cookies: { keys: ["test-cookie-key"] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, sub) {
      const account = accounts.get(sub);
      return account ? { accountId: sub, claims: async () => ({ sub, ...account }) } : undefined;
    },
  });
  const callback = provider.callback();
  server.on("request", (req, res) => {
    if (!req.url?.startsWith("/interaction/")) return callback(req, res);
    void finishInteraction(provider, req, res, subject).catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });
  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    signInAs: (sub) => void (subject = sub),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function finishInteraction(provider: Provider, req: http.IncomingMessage, res: http.ServerResponse, subject: string): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name === "login") {
    await provider.interactionFinished(req, res, { login: { accountId: subject } }, { mergeWithLastSubmission: false });
    return;
  }
  const grant = new provider.Grant({ accountId: details.session!.accountId, clientId: String(details.params.client_id) });
  grant.addOIDCScope("openid email profile");
  await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
}
