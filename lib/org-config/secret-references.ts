import { decryptJson, encryptJson } from "@/lib/crypto/secret-box";
import { logger } from "@/lib/log";

/**
 * The `${secret:NAME}` references a configuration apply wrote into a connector (its secret headers
 * and its auth's client secret), each sealed with the value it resolved to (connectors.secret_refs).
 * An export writes a reference again only while the connector still holds that value: a header
 * changed since by the API or the console, or a secret set again and not applied yet, is exported
 * with the default reference (`<CONNECTOR>_<HEADER>`), as before any apply. The values are kept
 * sealed like the headers themselves, never answered.
 */

interface Applied {
  ref: string;
  value: string;
}

export interface AppliedReferences {
  headers: Record<string, Applied>;
  clientSecret?: Applied;
}

const NONE: AppliedReferences = { headers: {} };

export function openAppliedReferences(sealed: string | null, connectorId: string): AppliedReferences {
  if (!sealed) return NONE;
  try {
    return decryptJson<AppliedReferences>(sealed);
  } catch {
    logger.warn({ connectorId }, "connector secret references cannot be decrypted; the export writes the default ones");
    return NONE;
  }
}

export function sealAppliedReferences(applied: AppliedReferences): string | null {
  return Object.keys(applied.headers).length === 0 && !applied.clientSecret ? null : encryptJson(applied);
}

/** The reference applied for a value the connector still holds, else `fallback`. */
export function referenceFor(applied: Applied | undefined, holds: string | undefined, fallback: string): string {
  return applied !== undefined && holds !== undefined && applied.value === holds ? applied.ref : fallback;
}

/** Each header's reference paired with the value it resolved to. */
export function appliedHeaders(references: Record<string, string>, values: Record<string, string>): Record<string, Applied> {
  return Object.fromEntries(Object.entries(values).flatMap(([name, value]) => (references[name] ? [[name, { ref: references[name], value }]] : [])));
}
