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

function operationOf(e: Endpoint): ZodOpenApiOperationObject {
  const status = e.status ?? (e.response ? 200 : 204);
  const ok = e.response
    ? { description: "Success", content: { "application/json": { schema: e.response } } }
    : { description: "Success, no content" };
  return {
    summary: e.summary,
    tags: [e.tag],
    ...(e.params || e.query ? { requestParams: { ...(e.params ? { path: e.params } : {}), ...(e.query ? { query: e.query } : {}) } } : {}),
    ...(e.body ? { requestBody: { required: true, content: { [e.bodyMediaType ?? "application/json"]: { schema: e.body } } } } : {}),
    responses: {
      [String(status)]: ok,
      "400": problem("Malformed JSON, or a URL path the server cannot read (a percent-escape that is not UTF-8, a NUL character)"),
      "401": problem("No or bad credential"),
      "404": problem("Missing, or not visible to the caller"),
      "422": problem("Validation failed (a field or query parameter holding a NUL character or an unpaired surrogate among the reasons)"),
      "429": problem("Rate limited"),
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
