import { z } from "zod";
import { authFieldErrors, clientFingerprint, type ConnectorAuth, ConnectorAuthInput } from "@/lib/connectors/upstream-auth/auth-schemas";

/**
 * The Authentication section of the connector forms (issue 24 point 1). Every field is text
 * in the form; `authInputOf` turns them into exactly the API's `auth` (empty fields left out),
 * and the checks are the API's own (ConnectorAuthInput, authFieldErrors) with the form's words
 * for what is missing. The client secret is write-only: empty on edit means "keep".
 */

export const AUTH_TYPES = ["headers", "oauth", "client_credentials"] as const;

export const AuthFields = z.object({
  type: z.enum(AUTH_TYPES),
  connection: z.enum(["per_user", "shared"]),
  clientId: z.string(),
  clientSecret: z.string(),
  /** Space-separated, as OAuth writes them. */
  scopes: z.string(),
  authorizationServer: z.string(),
  authorizationEndpoint: z.string(),
  tokenEndpoint: z.string(),
  tokenUrl: z.string(),
  audience: z.string(),
});
export type AuthFieldsInput = z.input<typeof AuthFields>;

const given = (value: string) => (value.trim() ? value.trim() : undefined);
const scopeList = (text: string) => text.split(/\s+/).filter(Boolean);

/** The API's `auth` for the form's values: only the chosen type's fields, empty ones left out. */
export function authInputOf(v: AuthFieldsInput): ConnectorAuthInput {
  const scopes = scopeList(v.scopes);
  const common = { clientSecret: v.clientSecret === "" ? undefined : v.clientSecret, scopes: scopes.length ? scopes : undefined };
  const input: Record<string, unknown> =
    v.type === "headers"
      ? { type: "headers" }
      : v.type === "oauth"
        ? { type: "oauth", connection: v.connection, clientId: given(v.clientId), ...common, authorizationServer: given(v.authorizationServer), authorizationEndpoint: given(v.authorizationEndpoint), tokenEndpoint: given(v.tokenEndpoint) }
        : { type: "client_credentials", tokenUrl: given(v.tokenUrl), clientId: given(v.clientId), ...common, audience: given(v.audience) };
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as ConnectorAuthInput;
}

/** What the form says for a required field left empty (the schema's own message is about types). */
const MISSING: Record<string, string> = { tokenUrl: "Enter the token URL.", clientId: "Enter the client ID." };

/**
 * The `auth` part of a connector form, checked as the API checks it for this connector type.
 * `hasStoredSecret`: on edit, a secret is stored for the form's type, so an empty one is kept.
 */
export function authForm(connectorType: "http" | "mcp", stored?: ConnectorAuth) {
  return AuthFields.superRefine((values, ctx) => {
    const input = authInputOf(values);
    const flagged = new Set<string>();
    const add = (field: string, message: string) => {
      if (flagged.has(field)) return;
      flagged.add(field);
      ctx.addIssue({ code: "custom", path: [field], message });
    };
    const parsed = ConnectorAuthInput.safeParse(input);
    for (const issue of parsed.success ? [] : parsed.error.issues) {
      const field = String(issue.path[0] ?? "type");
      add(field, field in input ? issue.message : (MISSING[field] ?? issue.message));
    }
    if (!parsed.success) return;
    const hasStoredSecret = stored !== undefined && stored.type === values.type && "hasClientSecret" in stored && stored.hasClientSecret === true;
    for (const problem of authFieldErrors(parsed.data, connectorType, hasStoredSecret)) add(problem.path.replace(/^auth\./, ""), problem.message);
  }).transform(authInputOf);
}

/** The form's values for a stored auth (no secret: the form never receives one). */
export function authFieldsOf(auth: ConnectorAuth | undefined): AuthFieldsInput {
  const a = (auth ?? { type: "headers" }) as Partial<Record<string, unknown>> & { type: AuthFieldsInput["type"] };
  const text = (key: string) => (typeof a[key] === "string" ? (a[key] as string) : "");
  return {
    type: a.type,
    connection: a.connection === "shared" ? "shared" : "per_user",
    clientId: text("clientId"),
    clientSecret: "",
    scopes: Array.isArray(a.scopes) ? a.scopes.join(" ") : "",
    authorizationServer: text("authorizationServer"),
    authorizationEndpoint: text("authorizationEndpoint"),
    tokenEndpoint: text("tokenEndpoint"),
    tokenUrl: text("tokenUrl"),
    audience: text("audience"),
  };
}

/**
 * Whether saving `next` over a stored OAuth auth makes people connect again: the API marks
 * its connections `needs_reconnect` when the client, the scopes or the server change, or a new
 * client secret is typed (lib/connectors/upstream-auth/change-auth.ts).
 */
export function asksToReconnect(stored: ConnectorAuth, next: ConnectorAuthInput): boolean {
  if (stored.type !== "oauth") return false;
  const { clientSecret, ...settings } = next as ConnectorAuthInput & { clientSecret?: string };
  return clientSecret !== undefined || clientFingerprint(stored) !== clientFingerprint(settings as ConnectorAuth);
}
