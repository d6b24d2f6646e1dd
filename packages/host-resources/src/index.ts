/**
 * @switchboard/host-resources: read a host's resources (the ai.nimblebrain/host-resources
 * extension) from tools of MCP servers built on the TypeScript SDK (v1 or v2).
 */
export { host, HostResources, isHostResourcesEra } from "./host.js";
export type { HostRequestOptions, ServerLike, ServerOrMcpServer, V1HandlerExtra, V2HandlerContext } from "./host.js";
export {
  HOST_RESOURCES_ERROR_CODES,
  HostResourceNotFoundError,
  HostResourcesError,
  HostResourcesInvalidParamsError,
  HostResourcesRateLimitedError,
  HostResourcesUnavailableError,
  HostResourceTooLargeError,
  toHostResourcesError,
} from "./errors.js";
export {
  blobBytes,
  FIRST_REVISION_WITHOUT_HOST_RESOURCES,
  HOST_RESOURCES_EXTENSION,
  isTextContents,
  LIST_METHOD,
  READ_METHOD,
} from "./protocol.js";
export type {
  BlobResourceContents,
  HostResourcesCapability,
  HostResourcesFilter,
  ListResourcesResult,
  ReadResourceResult,
  Resource,
  TextResourceContents,
} from "./protocol.js";
