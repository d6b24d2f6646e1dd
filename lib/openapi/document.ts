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
      "400": problem("Malformed JSON"),
      "401": problem("No or bad credential"),
      "403": problem("Not allowed to this caller; or a write with the browser session sent from another site's page"),
      "404": problem("Missing, or not visible to the caller"),
      ...(e.method === "GET" ? {} : { "413": problem("Request body too large") }),
      "422": problem("Validation failed"),
      "429": problem("Rate limited: this credential's budget, or too many unknown keys from this client address (Retry-After)"),
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
