import { randomUUID } from "node:crypto";
import type { z } from "zod";
import type { Caller } from "@/lib/auth/caller";
import { bearerToken, callerFromBearer } from "@/lib/auth/resolve-bearer";
import { callerFromSession } from "@/lib/auth/session-caller";
import { NotFoundError, UnauthorizedError } from "@/lib/errors";
import { problemResponse } from "@/lib/api/problem";
import { readJsonBody } from "@/lib/api/read-json-body";
import { assertStorablePath, assertStorableQuery } from "@/lib/api/validate-text";
import { limitApiCaller } from "@/lib/api/limit-api-caller";
import { recordRequest } from "@/lib/ops/request-log";
import type { Endpoint, Schema } from "@/lib/api/endpoint";
import { announceConfigChange } from "@/lib/ops/config-changes";

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
    if (spec.method !== "GET" && response.ok) announceConfigChange();
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
      const result = await run({ caller, params, body, query, request });
      return toResponse(result, spec.status ?? 200, requestId);
    } catch (e) {
      return problemResponse(e, requestId);
    }
  }
}

/** The caller's (or proxy's) x-request-id when it is a sane token, else a fresh one. */
function requestIdOf(request: Request): string {
  const given = request.headers.get("x-request-id");
  return given && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
}

async function authenticate(request: Request): Promise<Caller> {
  const token = bearerToken(request.headers.get("authorization"));
  if (token) {
    const caller = await callerFromBearer(token);
    if (caller) return caller;
    throw new UnauthorizedError("The bearer credential is not valid (unknown, revoked or expired).");
  }
  const sessionCaller = await callerFromSession(request);
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

function toResponse(result: unknown, status: number, requestId: string): Response {
  if (result instanceof Response) return result;
  if (result === undefined) return new Response(null, { status: 204, headers: { "x-request-id": requestId } });
  return new Response(JSON.stringify(result), {
    status,
    headers: { "content-type": "application/json", "x-request-id": requestId },
  });
}
