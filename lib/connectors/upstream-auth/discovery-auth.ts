import type { AuthProvider } from "@modelcontextprotocol/client";
import { ConflictError } from "@/lib/errors";
import { upstreamCredential } from "@/lib/connectors/upstream-auth/credential";

/**
 * The credential tool discovery (a reload) uses: none for a connector of static headers; the
 * reloading person's own connection for a `per_user` connector, the connector's for a `shared`
 * one. Without one the reload is refused with what to do ("connect to discover tools").
 */
export async function discoveryAuth(connector: { id: string; orgId: string; name: string }, userId: string | null): Promise<AuthProvider | undefined> {
  // A fresh read of the settings: a reload must not use a cached view of a changed connector.
  const credential = await upstreamCredential(connector, userId, -Date.now());
  if (credential.kind === "none") return undefined;
  if (credential.kind === "token") return credential.provider;
  const why = credential.reason === "instance" ? "The instance credential has no connection of its own; reload as a person who connected." : "Connect your account to this connector first (connect to discover tools), then reload.";
  throw new ConflictError(why);
}
