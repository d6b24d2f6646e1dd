import type { Prisma } from "@/lib/generated/prisma/client";
import { ValidationError, type FieldError } from "@/lib/errors";
import { authColumns, authFieldErrors, type ConnectorAuthInput } from "@/lib/connectors/upstream-auth/auth-settings";
import { changeConnectorAuth } from "@/lib/connectors/upstream-auth/change-auth";
import type { CanonicalDocument } from "@/lib/org-config/canonical";
import type { ReadConfig } from "@/lib/org-config/export-config";
import type { ConfigChange } from "@/lib/org-config/schemas";
import { resolveSecretReferences } from "@/lib/org-config/secrets";

/**
 * A connector's `auth` in an apply (docs/configuration-as-code.md): the document's settings with
 * the client secret's `${secret:NAME}` resolved, checked as the connector API checks them, and
 * written with that API's own column builders (a changed client asks connections to reconnect).
 */

interface AuthPlan {
  changes: ConfigChange[];
  current: ReadConfig;
  desired: CanonicalDocument;
  secrets: Map<string, string>;
}

/**
 * The auth input of each connector created or whose auth changes, by slug; 422 naming each
 * problem (a client secret whose secret is not set and none stored, a client_credentials without one…).
 */
export function resolvedAuth(plan: AuthPlan): Map<string, ConnectorAuthInput> {
  const out = new Map<string, ConnectorAuthInput>();
  const errors: FieldError[] = [];
  for (const change of plan.changes) {
    if (change.kind !== "connector" || change.action === "delete") continue;
    if (change.action === "update" && !(change.fields ?? []).some((f) => f.path === "auth" || f.path.startsWith("auth."))) continue;
    const index = plan.desired.connectors.findIndex((c) => c.slug === change.name);
    const connector = plan.desired.connectors[index];
    const before = plan.current.document.connectors.find((c) => c.slug === change.name);
    const stored = before?.auth.type === connector.auth.type ? plan.current.clientSecrets.get(change.name) : undefined;
    const path = `connectors.${index}.auth`;
    if (connector.auth.type === "headers") {
      out.set(change.name, { type: "headers" });
      continue;
    }
    const reference = connector.auth.clientSecret;
    const resolved = reference === undefined ? undefined : resolveSecretReferences(reference, plan.secrets);
    if (resolved === null && stored === undefined) {
      const missing = [...reference!.matchAll(/\$\{secret:([^}]*)\}/g)].map((m) => m[1]).filter((s) => !plan.secrets.has(s));
      errors.push({ path: `${path}.clientSecret`, message: `The secret ${missing.map((s) => `"${s}"`).join(", ")} is not set: PUT /orgs/{orgId}/secrets/{name} first.` });
      continue;
    }
    // A reference not set here keeps the stored secret (an export applied to its own organization).
    const input = { ...connector.auth, clientSecret: resolved ?? undefined } as ConnectorAuthInput;
    for (const e of authFieldErrors(input, connector.type, stored !== undefined)) errors.push({ path: `${path}${e.path.slice("auth".length)}`, message: e.message });
    out.set(change.name, input);
  }
  if (errors.length > 0) throw new ValidationError(errors, "Some connectors' auth cannot be written; nothing was changed.");
  return out;
}

/** The auth columns of a connector the apply creates or changes (none when its auth stays). */
export async function authData(
  tx: Prisma.TransactionClient,
  connector: { id: string | undefined; orgId: string; type: "http" | "mcp" },
  input: ConnectorAuthInput | undefined,
): Promise<Prisma.ConnectorUpdateManyMutationInput> {
  if (!input) return {};
  if (!connector.id) return authColumns(input, connector.type);
  const row = await tx.connector.findFirstOrThrow({ where: { id: connector.id, orgId: connector.orgId }, select: { auth: true, authSecret: true } });
  return changeConnectorAuth(tx, { id: connector.id, orgId: connector.orgId, type: connector.type, ...row }, input);
}
