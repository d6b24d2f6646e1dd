import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from "zod-openapi";
import type { Endpoint } from "@/lib/api/endpoint";
import { allEndpoints } from "@/lib/openapi/all-endpoints";

/** The OpenAPI 3.1 description of /api/v1, generated from the schemas the handlers validate with. */

const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: "Problem" });

const problem = (description: string) => ({ description, content: { "application/problem+json": { schema: Problem } } });

/** Optimistic concurrency (lib/api/if-match.ts), on the endpoints declared with `etag`. */
const ETagHeader = z.object({
  ETag: z.string().meta({ description: "The object's version (a strong entity tag); send it back in If-Match to change the object only if nobody else has." }),
});
const IfMatchHeader = z.object({
  "If-Match": z
    .string()
    .optional()
    .meta({ description: "Change the object only if its current ETag is one of these (or `*`: any existing object); else 412 and nothing changes. Absent: last write wins." }),
});
const honoursIfMatch = (e: Endpoint) => e.etag === true && ["PUT", "PATCH", "DELETE"].includes(e.method);

function requestParamsOf(e: Endpoint) {
  const params = {
    ...(e.params ? { path: e.params } : {}),
    ...(e.query ? { query: e.query } : {}),
    ...(honoursIfMatch(e) ? { header: IfMatchHeader } : {}),
  };
  return Object.keys(params).length ? { requestParams: params } : {};
}

function operationOf(e: Endpoint): ZodOpenApiOperationObject {
  const status = e.status ?? (e.response ? 200 : 204);
  const ok = e.response
    ? { description: "Success", content: { "application/json": { schema: e.response } }, ...(e.etag ? { headers: ETagHeader } : {}) }
    : { description: "Success, no content" };
  return {
    summary: e.summary,
    tags: [e.tag],
    ...requestParamsOf(e),
    ...(e.body ? { requestBody: { required: true, content: { [e.bodyMediaType ?? "application/json"]: { schema: e.body } } } } : {}),
    responses: {
      [String(status)]: ok,
      ...Object.fromEntries((e.otherResponses ?? []).map((r) => [String(r.status), { description: r.description, content: { "application/json": { schema: r.response } } }])),
      "400": problem("Malformed JSON, or a URL path the server cannot read (a percent-escape that is not UTF-8, a NUL character)"),
      "401": problem("No or bad credential"),
      "403": problem("Not allowed to this caller; or a write with the browser session sent from another site's page"),
      "404": problem("Missing, or not visible to the caller"),
      ...(e.method === "GET" ? {} : { "413": problem("Request body too large") }),
      "422": problem("Validation failed (a field or query parameter holding a NUL character or an unpaired surrogate among the reasons)"),
      "429": problem("Rate limited: this credential's budget, or too many unknown keys from this client address (Retry-After)"),
      ...(honoursIfMatch(e) ? { "412": problem("If-Match names an older version: somebody else changed the object first; nothing was changed") } : {}),
    },
  } as ZodOpenApiOperationObject;
}

export function buildOpenApiDocument(serverUrl = "/api/v1") {
  const paths: ZodOpenApiPathsObject = {};
  for (const e of allEndpoints()) {
    const item = (paths[e.path] ??= {}) as Record<string, ZodOpenApiOperationObject>;
    item[e.method.toLowerCase()] = operationOf(e);
  }
  return createDocument({
    openapi: "3.1.0",
    info: { title: "Switchboard admin API", version: "1.0.0", description: "Everything the admin UI can do, scripted." },
    servers: [{ url: serverUrl }],
    security: [{ bearer: [] }],
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
    paths,
  });
}
