/**
 * The ai.nimblebrain/host-resources extension (seed 000): its identifiers and the capability
 * object the host claims, shared by the outbound MCP connections that advertise it and by the
 * handlers that serve its methods.
 */

/** The key under `capabilities.extensions` (seed 000 "Capability"). */
export const HOST_RESOURCES_CAPABILITY_ID = "ai.nimblebrain/host-resources";

/** Server → host request: read one resource (the specification's resources/read shapes). */
export const HOST_RESOURCES_READ_METHOD = "ai.nimblebrain/resources/read";

/** Server → host request: list the readable resources (the specification's resources/list shapes). */
export const HOST_RESOURCES_LIST_METHOD = "ai.nimblebrain/resources/list";

/** read.maxSize: the largest resource a read returns, in bytes (10 MiB). */
export const HOST_RESOURCES_MAX_READ_BYTES = 10_485_760;

/** The URI schemes the host resolves. */
export const HOST_RESOURCES_SCHEMES = ["files"] as const;

/** The claimed capability, exactly as seed 000 "Capability" shows it. */
export interface HostResourcesCapability {
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
export function hostResourcesCapability(served: HostResourcesOperations = { read: true, list: true }): HostResourcesCapability {
  return {
    read: { enabled: served.read, range: false, maxSize: HOST_RESOURCES_MAX_READ_BYTES },
    list: { enabled: served.list },
    write: { enabled: false },
    schemes: [...HOST_RESOURCES_SCHEMES],
  };
}

/** The first protocol revision without server → client requests: the extension is not served there. */
export const FIRST_REVISION_WITHOUT_HOST_RESOURCES = "2026-07-28";

/**
 * Whether a negotiated protocol version is 2025-era (initialize-based), where the extension
 * is claimed and served. Revisions are ISO dates, so they compare as strings.
 */
export function isHostResourcesEra(protocolVersion: string | null | undefined): boolean {
  return typeof protocolVersion === "string" && protocolVersion < FIRST_REVISION_WITHOUT_HOST_RESOURCES;
}

/** JSON-RPC error codes of the extension (seed 000 "Errors"). */
export const HOST_RESOURCES_ERRORS = {
  notFound: -32002,
  invalidParams: -32602,
  rateLimited: -32004,
  tooLarge: -32005,
} as const;
