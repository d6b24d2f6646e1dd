/**
 * The ai.nimblebrain/host-resources extension as a server sees it: identifiers, the capability
 * object a host claims, and the specification's resources/read and resources/list shapes.
 */

/** The key under the client's `capabilities.extensions`. */
export const HOST_RESOURCES_EXTENSION = "ai.nimblebrain/host-resources";

/** Server → host: read one resource. */
export const READ_METHOD = "ai.nimblebrain/resources/read";

/** Server → host: list the resources the server can read. */
export const LIST_METHOD = "ai.nimblebrain/resources/list";

/**
 * The first protocol revision without server → client requests. The methods are reachable only
 * on a connection that negotiated an earlier revision (revisions are ISO dates: they compare as
 * strings).
 */
export const FIRST_REVISION_WITHOUT_HOST_RESOURCES = "2026-07-28";

/** The capability object, as a host claims it. Every field is optional to a careful reader. */
export interface HostResourcesCapability {
  read?: { enabled?: boolean; range?: boolean; maxSize?: number; [option: string]: unknown };
  list?: { enabled?: boolean; [option: string]: unknown };
  write?: { enabled?: boolean; [option: string]: unknown };
  schemes?: string[];
  [field: string]: unknown;
}

/** The specification's TextResourceContents. */
export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
  _meta?: Record<string, unknown>;
}

/** The specification's BlobResourceContents (`blob` is base64). */
export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  blob: string;
  _meta?: Record<string, unknown>;
}

/** The specification's ReadResourceResult. */
export interface ReadResourceResult {
  contents: Array<TextResourceContents | BlobResourceContents>;
  _meta?: Record<string, unknown>;
}

/** The specification's Resource, as a list returns it. */
export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  _meta?: Record<string, unknown>;
  [field: string]: unknown;
}

/** The specification's ListResourcesResult (a host never pages: no nextCursor). */
export interface ListResourcesResult {
  resources: Resource[];
  nextCursor?: string;
  _meta?: Record<string, unknown>;
}

/** `params._meta.filter` of a list request. */
export interface HostResourcesFilter {
  /** Only `files` is accepted by the host; any other value fails with -32602. */
  scheme?: string;
  /** An exact MIME type. */
  mimeType?: string;
  /** Files carrying every listed tag. */
  tags?: string[];
}

/** Whether `content` came back as text (a text MIME type) rather than a base64 blob. */
export function isTextContents(content: TextResourceContents | BlobResourceContents): content is TextResourceContents {
  return typeof (content as TextResourceContents).text === "string";
}

/** Decodes a blob content's bytes. */
export function blobBytes(content: BlobResourceContents): Uint8Array {
  const nodeBuffer = (globalThis as { Buffer?: { from(data: string, encoding: "base64"): Uint8Array } }).Buffer;
  if (nodeBuffer) return nodeBuffer.from(content.blob, "base64");
  return Uint8Array.from(atob(content.blob), (c) => c.charCodeAt(0));
}
