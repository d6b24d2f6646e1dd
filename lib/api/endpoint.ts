import { z } from "zod";

/**
 * One endpoint of the admin JSON API, declared once: the route handler validates with these
 * schemas and the OpenAPI document (lib/openapi/document.ts) is generated from them.
 */
export type Schema = z.ZodType | undefined;
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface Endpoint<PS extends Schema = Schema, B extends Schema = Schema, Q extends Schema = Schema> {
  /**
   * The OpenAPI operationId: verb-first camelCase, unique in the API and stable, because a
   * generated client (packages/client) names its calls by it. Renaming one breaks such clients.
   */
  operationId: string;
  method: HttpMethod;
  /** OpenAPI path below /api/v1, e.g. "/orgs/{orgId}". */
  path: string;
  summary: string;
  tag: string;
  params?: PS;
  body?: B;
  query?: Q;
  /** Status of a successful answer (default 200; 204 when `response` is absent). */
  status?: number;
  response?: z.ZodType;
  /** Other successful answers, e.g. 202 with an invitation where the usual answer is a membership. */
  otherResponses?: { status: number; description: string; response: z.ZodType }[];
  /**
   * Optimistic concurrency (lib/api/if-match.ts): the object answered carries an `ETag`, and a
   * PATCH/PUT/DELETE honours `If-Match` (412 when somebody else changed the object first).
   */
  etag?: true;
  /** A POST that honours `If-Match` too (412 when it names an older version), e.g. an apply of a plan. */
  ifMatch?: true;
  /**
   * When this endpoint answers 409, said where its shape does not say it already: every
   * POST/PUT/PATCH with a body is documented with a 409 (a taken slug or name, a concurrent
   * change); a DELETE or a body-less POST that can conflict names its reason here.
   */
  conflict?: string;
  /** The body, and the answer, may also be `application/yaml` (a configuration document). */
  yaml?: true;
  /** Request body media type other than JSON (file upload). */
  bodyMediaType?: "multipart/form-data";
  /** The answer's media types when it is not JSON (a download, an export); `response` then describes the bytes. */
  responseMediaTypes?: readonly string[];
}

export function endpoint<PS extends Schema = undefined, B extends Schema = undefined, Q extends Schema = undefined>(
  e: Endpoint<PS, B, Q>,
): Endpoint<PS, B, Q> {
  return e;
}

/** The `{ items, nextCursor }` envelope of every list. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), nextCursor: z.string().nullable() });
}
