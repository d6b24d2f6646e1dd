import { isObject } from "@/lib/connectors/openapi-schema";

/** An OpenAPI document's security schemes as the secret headers an http connector sends. */

type Json = Record<string, unknown>;

/** A header the API's security schemes ask for: the admin fills in its value as a secret header. */
export interface ImportedSecretHeader {
  name: string;
  /** What the value looks like ("Bearer <token>"), from the scheme. */
  placeholder: string;
  /** The security scheme's name in the document. */
  scheme: string;
}

/**
 * components.securitySchemes as request headers: apiKey in a header keeps its header name;
 * http bearer, oauth2 and openIdConnect send `Authorization: Bearer …`, http basic
 * `Authorization: Basic …`. Query and cookie keys cannot be secret headers: a warning says so.
 */
export function securityHeaders(doc: Json, warnings: string[]): ImportedSecretHeader[] {
  const schemes = isObject(doc.components) && isObject(doc.components.securitySchemes) ? doc.components.securitySchemes : {};
  const headers = new Map<string, ImportedSecretHeader>();
  for (const [scheme, value] of Object.entries(schemes)) {
    if (!isObject(value)) continue;
    const header = headerOfScheme(value);
    if (header === null) {
      warnings.push(`The security scheme "${scheme}" sends its key in the ${String(value.in)}; http tools send secrets as headers only.`);
    } else if (header && !headers.has(header.name.toLowerCase())) {
      headers.set(header.name.toLowerCase(), { ...header, scheme });
    }
  }
  return [...headers.values()];
}

/** The header a scheme uses; null when it cannot be a header, undefined when unknown. */
function headerOfScheme(scheme: Json): { name: string; placeholder: string } | null | undefined {
  if (scheme.type === "apiKey") {
    if (scheme.in !== "header") return null;
    return typeof scheme.name === "string" && /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/.test(scheme.name) ? { name: scheme.name, placeholder: "your API key" } : undefined;
  }
  const httpScheme = typeof scheme.scheme === "string" ? scheme.scheme.toLowerCase() : "";
  if (scheme.type === "http" && httpScheme === "basic") return { name: "Authorization", placeholder: "Basic <base64 of user:password>" };
  if ((scheme.type === "http" && httpScheme === "bearer") || scheme.type === "oauth2" || scheme.type === "openIdConnect") {
    return { name: "Authorization", placeholder: "Bearer <token>" };
  }
  return undefined;
}
