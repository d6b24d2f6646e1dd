/** The few parts of oidc-provider 9 (no bundled types) that tests/helpers/oidc-idp.ts uses. */
declare module "oidc-provider" {
  import type http from "node:http";

  interface Interaction {
    uid: string;
    prompt: { name: string };
    params: Record<string, unknown>;
    session?: { accountId: string };
  }
  interface Account {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }
  class Grant {
    constructor(init: { accountId: string; clientId: string });
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  export default class Provider {
    constructor(issuer: string, configuration: {
      clients: Record<string, unknown>[];
      claims?: Record<string, string[]>;
      conformIdTokenClaims?: boolean;
      cookies?: { keys: string[] };
      features?: Record<string, unknown>;
      interactions?: { url(ctx: unknown, interaction: Interaction): string };
      findAccount(ctx: unknown, sub: string): Promise<Account | undefined>;
    });
    Grant: typeof Grant;
    callback(): (req: http.IncomingMessage, res: http.ServerResponse) => void;
    interactionDetails(req: http.IncomingMessage, res: http.ServerResponse): Promise<Interaction>;
    interactionFinished(req: http.IncomingMessage, res: http.ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<void>;
  }
}
