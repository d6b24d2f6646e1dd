import { FIRST_REVISION_WITHOUT_HOST_RESOURCES, type HostResourcesCapability } from "@/packages/host-resources/src/protocol";

/**
 * What this host claims of the ai.nimblebrain/host-resources extension (seed 000
 * "Capability"). The wire contract itself (identifiers, shapes, error codes and classes) is
 * packages/host-resources, the one copy server authors and this product both read. The product
 * imports its dependency-free modules (protocol, errors) directly rather than its index, whose
 * `./x.js` specifiers are written for the published build.
 */

/** read.maxSize: the largest resource a read returns, in bytes (10 MiB). */
export const HOST_RESOURCES_MAX_READ_BYTES = 10_485_760;

/** The URI schemes the host resolves. */
export const HOST_RESOURCES_SCHEMES = ["files"] as const;

/** The claimed capability, exactly as seed 000 "Capability" shows it: every field present. */
export interface HostResourcesClaim extends HostResourcesCapability {
  read: { enabled: boolean; range: boolean; maxSize: number };
  list: { enabled: boolean };
  write: { enabled: boolean };
  schemes: string[];
}

/** The operations a host serves; each one's `enabled` in the claim says exactly that. */
export interface HostResourcesOperations {
  read: boolean;
  list: boolean;
}

/**
 * A fresh copy of the capability object (callers may put it in messages they mutate). Each
 * operation's `enabled` is whether that operation is served, so a server that "checks enabled
 * on the specific operation" it calls is never told a method exists that is not served.
 * Writing back is never served.
 */
export function hostResourcesCapability(served: HostResourcesOperations = { read: true, list: true }): HostResourcesClaim {
  return {
    read: { enabled: served.read, range: false, maxSize: HOST_RESOURCES_MAX_READ_BYTES },
    list: { enabled: served.list },
    write: { enabled: false },
    schemes: [...HOST_RESOURCES_SCHEMES],
  };
}

/**
 * Whether the host serves the extension on a connection that negotiated `protocolVersion`: a
 * known 2025-era (initialize-based) revision. Unlike a server reading the claim, the host
 * never guesses: no negotiated version, nothing served.
 */
export function servesHostResources(protocolVersion: string | null | undefined): boolean {
  // Revisions are ISO dates: they compare as strings.
  return typeof protocolVersion === "string" && protocolVersion < FIRST_REVISION_WITHOUT_HOST_RESOURCES;
}
