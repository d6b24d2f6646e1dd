import { z } from "zod";
import type { Endpoint } from "@/lib/api/endpoint";
import { BulkResult } from "@/lib/api/bulk";

/**
 * The problem+json answers of one operation, derived from the shape of its endpoint spec (what
 * the route wrapper, lib/api/handler.ts, and the body reader can refuse) rather than listed by
 * hand, so a new endpoint is documented with the errors it can really answer.
 */

export const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: "Problem", description: "An error (RFC 9457 problem details); `errors` names each invalid field." });

const problem = (description: string) => ({ description, content: { "application/problem+json": { schema: Problem } } });

const WRITES = ["POST", "PUT", "PATCH", "DELETE"];

export const honoursIfMatch = (e: Endpoint) => e.ifMatch === true || (e.etag === true && ["PUT", "PATCH", "DELETE"].includes(e.method));

const hasBody = (e: Endpoint) => Boolean(e.body || e.bodyMediaType);
const hasJsonBody = (e: Endpoint) => Boolean(e.body) && !e.bodyMediaType;
/** A bulk action answers each object's failure inside its 200 (lib/api/bulk.ts), never as the whole request's status. */
const isBulk = (e: Endpoint) => e.response === BulkResult;

/** A body field naming other objects (`orgId`, `workspaceIds`): one the caller cannot see is a 404. */
function bodyNamesObjects(e: Endpoint): boolean {
  const shape = e.body instanceof z.ZodObject ? (e.body.shape as Record<string, unknown>) : {};
  return Object.keys(shape).some((key) => /[a-z]Ids?$/.test(key));
}

/** 409: a unique value taken (slug, name, email, membership) by a create or change, or the endpoint's own reason. */
function conflictOf(e: Endpoint): string | null {
  if (e.conflict) return e.conflict;
  if (!hasJsonBody(e) || isBulk(e) || !WRITES.includes(e.method)) return null;
  return e.method === "POST" && e.status !== 201 ? null : "Conflict: a unique value (a slug, a name, an email, a membership) is taken, or the change collided with a concurrent one; nothing was changed";
}

export function errorResponsesOf(e: Endpoint) {
  const conflict = conflictOf(e);
  return {
    "400": problem(hasJsonBody(e) ? "Malformed JSON, or a URL path the server cannot read (a percent-escape that is not UTF-8, a NUL character)" : "A request the server cannot read: a URL path with a percent-escape that is not UTF-8 or a NUL character, or a malformed body"),
    "401": problem("No or bad credential"),
    "403": problem(WRITES.includes(e.method) ? "Not allowed to this caller; or a write with the browser session sent from another site's page" : "Not allowed to this caller"),
    ...(e.params || bodyNamesObjects(e) ? { "404": problem("Missing, or not visible to the caller (the same answer either way)") } : {}),
    ...(conflict ? { "409": problem(conflict) } : {}),
    ...(honoursIfMatch(e) ? { "412": problem("If-Match names an older version: somebody else changed the object first; nothing was changed") } : {}),
    ...(hasBody(e) ? { "413": problem("Request body too large") } : {}),
    ...(hasBody(e) ? { "415": problem(`The body is not ${e.bodyMediaType ?? (e.yaml ? "application/json or application/yaml" : "application/json")}`) } : {}),
    "422": problem("Validation failed: `errors` names each problem (a field, a query parameter or the object's state; text holding a NUL character or an unpaired surrogate among the reasons)"),
    "429": problem("Rate limited: this credential's budget, or too many unknown keys from this client address (Retry-After)"),
  };
}
