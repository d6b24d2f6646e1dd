import { randomUUID } from "node:crypto";
import type { z } from "zod";
import type { Caller } from "@/lib/auth/caller";
import { bearerToken, callerFromBearerFor } from "@/lib/auth/resolve-bearer";
import { callerFromSession } from "@/lib/auth/session-caller";
import { ForbiddenError, NotFoundError, RateLimitedError, UnauthorizedError } from "@/lib/errors";
import { isSafeMethod, isSameOriginRequest } from "@/lib/auth/same-origin";
import { clientIpFromHeaders } from "@/lib/ratelimit/client-ip";
import { problemResponse } from "@/lib/api/problem";
import { readJsonBody } from "@/lib/api/read-json-body";
import { assertStorablePath, assertStorableQuery } from "@/lib/api/validate-text";
import { limitApiCaller } from "@/lib/api/limit-api-caller";
import { recordRequest } from "@/lib/ops/request-log";
import type { Endpoint, Schema } from "@/lib/api/endpoint";
import { withAnnouncedChanges } from "@/lib/config-version/config-version";
import { etagOf, type IfMatch, parseIfMatch } from "@/lib/api/if-match";

/**
 * Thin route wrapper (the `app/api/v1` handlers are one call of this each): authenticates,
 * rate-limits, parses and validates the body and query with the declared zod schemas,
 * calls one domain function and maps its result or error to HTTP.
 */

export interface HandlerInput<P, B, Q> {
  caller: Caller;
  params: P;
  body: B;
  query: Q;
  request: Request;
  /** The write's `If-Match` precondition, for endpoints declared with `etag` (absent: last write wins). */
  ifMatch: IfMatch | undefined;
}

type Infer<S> = S extends z.ZodType ? z.infer<S> : undefined;

export function apiRoute<PS extends Schema, B extends Schema, Q extends Schema>(
  spec: Endpoint<PS, B, Q>,
  run: (input: HandlerInput<Infer<PS>, Infer<B>, Infer<Q>>) => Promise<unknown>,
) {
  type Context = { params: Promise<Record<string, string | string[]>> };
  const route = `/api/v1${spec.path}`;
  return async (request: Request, context: Context): Promise<Response> => {
    const requestId = requestIdOf(request);
    const started = performance.now();
    const response = await answer(request, context, requestId);
    recordRequest({ route, method: spec.method, status: response.status, durationMs: performance.now() - started, requestId });
    return response;
  };

  async function answer(request: Request, context: Context, requestId: string): Promise<Response> {
    try {
      // Text the database cannot store is refused before any work (lib/api/validate-text.ts).
      const rawParams = await context.params;
      assertStorablePath(rawParams);
      const searchParams = new URL(request.url).searchParams;
      assertStorableQuery(searchParams);
      const caller = await authenticate(request);
      await limitApiCaller(caller);
      const body = (spec.body ? spec.body.parse(await readJsonBody(request)) : undefined) as Infer<B>;
      const query = (spec.query ? spec.query.parse(Object.fromEntries(searchParams)) : undefined) as Infer<Q>;
      const params = parseParams(spec.params, rawParams) as Infer<PS>;
      const ifMatch = spec.etag || spec.ifMatch ? parseIfMatch(request.headers.get("if-match")) : undefined;
      const result = await withAnnouncedChanges(() => run({ caller, params, body, query, request, ifMatch }));
      return toResponse(result, spec.status ?? 200, requestId, spec.etag === true);
    } catch (e) {
      return problemResponse(e, requestId);
    }
  }
}

/**
 * A domain result answered with one of the endpoint's `otherResponses` statuses instead of its
 * usual one (the route picks it; the domain function stays free of HTTP).
 */
export class Answer {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

/** The caller's (or proxy's) x-request-id when it is a sane token, else a fresh one. */
function requestIdOf(request: Request): string {
  const given = request.headers.get("x-request-id");
  return given && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
}

async function authenticate(request: Request): Promise<Caller> {
  const token = bearerToken(request.headers.get("authorization"));
  if (token) {
    const outcome = await callerFromBearerFor(token, clientIpFromHeaders(request.headers));
    if (outcome.ok) return outcome.caller;
    if (outcome.retryAfterMs !== null) throw new RateLimitedError(outcome.retryAfterMs);
    throw new UnauthorizedError("The bearer credential is not valid (unknown, revoked or expired).");
  }
  const sessionCaller = await callerFromSession(request);
  if (sessionCaller && !isSafeMethod(request.method) && !isSameOriginRequest(request.headers, request.url)) {
    throw new ForbiddenError("A signed-in browser may change things only from this platform's own pages (Origin / Sec-Fetch-Site is another site's); automation uses an API key.");
  }
  if (sessionCaller) return sessionCaller;
  throw new UnauthorizedError();
}

/** A malformed path id names nothing: it is not found, like any other unknown id. */
function parseParams(schema: Schema, raw: unknown): unknown {
  if (!schema) return raw;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new NotFoundError();
  return parsed.data;
}

/** Downloads, documents and streams a route builds itself carry the request id too (a fetched Response's headers are immutable, hence the copy). */
function withRequestId(response: Response, requestId: string): Response {
  if (response.headers.has("x-request-id")) return response;
  const headers = new Headers(response.headers);
  headers.set("x-request-id", requestId);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

function toResponse(result: unknown, status: number, requestId: string, withEtag: boolean): Response {
  if (result instanceof Response) return withRequestId(result, requestId);
  if (result instanceof Answer) return toResponse(result.body, result.status, requestId, withEtag);
  if (result === undefined) return new Response(null, { status: 204, headers: { "x-request-id": requestId } });
  const headers = new Headers({ "content-type": "application/json", "x-request-id": requestId });
  // The same digest the domain compares If-Match with: the tag of exactly this JSON.
  if (withEtag) headers.set("etag", etagOf(result));
  return new Response(JSON.stringify(result), { status, headers });
}
