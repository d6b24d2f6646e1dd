import { NextRequest } from "next/server";
import { problemResponse } from "@/lib/api/problem";
import { readBodyText } from "@/lib/api/read-json-body";
import { assertStorableBody, assertStorablePath, assertStorableQuery } from "@/lib/api/validate-text";
import { AppError } from "@/lib/errors";

/**
 * The edge check in front of NextAuth (/api/auth/*): NextAuth parses a JSON body with
 * `req.json()` and lets a body of `{` escape as a 500, and passes form fields straight to the
 * sign-in lookup. Here the body is read once (bounded), must parse, and may hold no text the
 * database cannot store; NextAuth then gets an identical request carrying the same text.
 */

/** Sign-in and sign-out forms are a few hundred bytes. */
const MAX_AUTH_BODY_BYTES = 64 * 1024;

export async function checkAuthRequest(request: NextRequest, params: Record<string, string | string[]>): Promise<NextRequest | Response> {
  try {
    assertStorablePath(params);
    assertStorableQuery(new URL(request.url).searchParams);
    if (request.method !== "POST" || !request.body) return request;
    const text = await readBodyText(request, MAX_AUTH_BODY_BYTES);
    if (text === null) throw new AppError("payload_too_large", `The request body is larger than ${MAX_AUTH_BODY_BYTES} bytes.`);
    assertStorableBody(parseForm(text, request.headers.get("content-type") ?? ""));
    const headers = new Headers(request.headers);
    headers.delete("content-length");
    return new NextRequest(request.url, { method: request.method, headers, body: text });
  } catch (e) {
    return problemResponse(e);
  }
}

/** The body as NextAuth will read it (JSON or a URL-encoded form); other types it ignores. */
function parseForm(text: string, contentType: string): unknown {
  if (contentType.includes("application/json")) {
    try {
      return JSON.parse(text);
    } catch (e) {
      throw new AppError("bad_request", `The request body is not valid JSON: ${(e as Error).message}`);
    }
  }
  if (contentType.includes("application/x-www-form-urlencoded")) return Object.fromEntries(new URLSearchParams(text));
  return null;
}
