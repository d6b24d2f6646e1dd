import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from "zod-openapi";
import type { Endpoint } from "@/lib/api/endpoint";
import { allEndpoints } from "@/lib/openapi/all-endpoints";
import { errorResponsesOf, honoursIfMatch } from "@/lib/openapi/error-responses";
import { API_TAGS } from "@/lib/openapi/tags";

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

function requestParamsOf(e: Endpoint) {
  const params = {
    ...(e.params ? { path: e.params } : {}),
    ...(e.query ? { query: e.query } : {}),
    ...(honoursIfMatch(e) ? { header: IfMatchHeader } : {}),
  };
  return Object.keys(params).length ? { requestParams: params } : {};
}

/** JSON, and YAML too where the endpoint reads or answers a configuration document as either. */
function mediaOf(e: Endpoint, yamlToo: boolean, schema: z.ZodType) {
  if (e.responseMediaTypes && e.method === "GET") return Object.fromEntries(e.responseMediaTypes.map((type) => [type, { schema }]));
  return { "application/json": { schema }, ...(e.yaml && yamlToo ? { "application/yaml": { schema } } : {}) };
}

function operationOf(e: Endpoint): ZodOpenApiOperationObject {
  const status = e.status ?? (e.response ? 200 : 204);
  const ok = e.response
    ? { description: "Success", content: mediaOf(e, e.method === "GET", e.response), ...(e.etag ? { headers: ETagHeader } : {}) }
    : { description: "Success, no content" };
  return {
    operationId: e.operationId,
    summary: e.summary,
    tags: [e.tag],
    ...requestParamsOf(e),
    ...(e.body ? { requestBody: { required: true, content: e.bodyMediaType ? { [e.bodyMediaType]: { schema: e.body } } : mediaOf(e, true, e.body) } } : {}),
    responses: {
      [String(status)]: ok,
      ...Object.fromEntries((e.otherResponses ?? []).map((r) => [String(r.status), { description: r.description, content: { "application/json": { schema: r.response } } }])),
      ...errorResponsesOf(e),
    },
  } as ZodOpenApiOperationObject;
}

/** The OpenAPI 3.1 description of /api/v1, generated from the schemas the handlers validate with. */
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
    tags: API_TAGS,
    security: [{ bearer: [] }],
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
    paths,
  });
}
