import {
  cursorNotSupported,
  malformedParam,
  resourceNotFound,
  unsupportedFilterScheme,
  unsupportedUriScheme,
} from "@/lib/host-resources/errors";

/** RFC 3986 scheme, compared case-insensitively as the RFC says. */
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
/** The only URI shape that names a file: `files://fl_` + 24 hex. */
const FILE_URI = /^files:\/\/(fl_[0-9a-f]{24})$/i;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** `params.uri` of a read request; -32602 `{ receivedType }` when it is not a string. */
export function readUriParam(params: unknown): string {
  if (!isObject(params)) throw malformedParam("params must be an object with a `uri`", params);
  if (typeof params.uri !== "string") throw malformedParam("params.uri must be a string", params.uri);
  return params.uri;
}

/**
 * The file id a `files://` URI names. Another scheme (or none) → -32602 `{ uri, supported }`;
 * a `files:` URI that cannot name a file → -32002 `{ uri }`, as a file that does not exist.
 */
export function fileIdFromUri(uri: string): string {
  const scheme = SCHEME.exec(uri)?.[1];
  if (!scheme || scheme.toLowerCase() !== "files") throw unsupportedUriScheme(uri);
  const match = FILE_URI.exec(uri);
  if (!match) throw resourceNotFound(uri);
  return match[1].toLowerCase();
}

/** Bounds of a list filter, as files have them: a file carries at most 50 tags of at most 100 characters. */
const MAX_FILTER_TAGS = 50;
const MAX_TAG_LENGTH = 100;
const MAX_MIME_TYPE_LENGTH = 255;

export interface ListFilter {
  mimeType?: string;
  tags?: string[];
}

/**
 * The filter of a list request, from `params._meta.filter` (seed 000 filter table). A cursor
 * fails (-32602 `{ cursor }`), as do a scheme other than `files` (`{ scheme, supported }`),
 * tags that are not an array (`{ receivedType }`), and filters no file could match that would
 * only make the query and its audit record big (over 50 tags, a tag over 100 characters, a MIME
 * type over 255: `{ receivedType }`).
 */
export function parseListParams(params: unknown): ListFilter {
  if (params === undefined || params === null) return {};
  if (!isObject(params)) throw malformedParam("params must be an object", params);
  if ("cursor" in params && params.cursor !== undefined) throw cursorNotSupported(params.cursor);
  const meta = params._meta;
  if (meta === undefined || meta === null) return {};
  if (!isObject(meta)) throw malformedParam("params._meta must be an object", meta);
  const filter = meta.filter;
  if (filter === undefined || filter === null) return {};
  if (!isObject(filter)) throw malformedParam("_meta.filter must be an object", filter);
  if (filter.scheme !== undefined && filter.scheme !== "files") throw unsupportedFilterScheme(filter.scheme);
  const out: ListFilter = {};
  if (filter.mimeType !== undefined) {
    if (typeof filter.mimeType !== "string") throw malformedParam("_meta.filter.mimeType must be a string", filter.mimeType);
    if (filter.mimeType.length > MAX_MIME_TYPE_LENGTH) throw malformedParam(`_meta.filter.mimeType has at most ${MAX_MIME_TYPE_LENGTH} characters`, filter.mimeType);
    out.mimeType = filter.mimeType;
  }
  if (filter.tags !== undefined) {
    if (!Array.isArray(filter.tags)) throw malformedParam("_meta.filter.tags must be an array", filter.tags);
    const bad = filter.tags.find((t) => typeof t !== "string");
    if (bad !== undefined) throw malformedParam("_meta.filter.tags must hold strings", bad);
    if (filter.tags.length > MAX_FILTER_TAGS) throw malformedParam(`_meta.filter.tags holds at most ${MAX_FILTER_TAGS} tags`, filter.tags);
    const long = filter.tags.find((t: string) => t.length > MAX_TAG_LENGTH);
    if (long !== undefined) throw malformedParam(`_meta.filter.tags holds tags of at most ${MAX_TAG_LENGTH} characters`, long);
    out.tags = filter.tags as string[];
  }
  return out;
}
