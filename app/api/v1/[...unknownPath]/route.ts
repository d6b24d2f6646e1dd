import { problemResponse } from "@/lib/api/problem";
import { AppError } from "@/lib/errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * A path under /api/v1 that no operation serves (a mistyped path, an object under the wrong
 * parent) answers the API's own 404 problem, not the console's HTML "page not found": a script
 * or the typed client reads a problem it can show. Next routes here only when nothing more
 * specific matches.
 */
function unknownOperation(): Response {
  return problemResponse(new AppError("not_found", "No API operation has this path; the operations are listed in /api/v1/openapi.json."));
}

export const GET = unknownOperation;
export const HEAD = unknownOperation;
export const POST = unknownOperation;
export const PUT = unknownOperation;
export const PATCH = unknownOperation;
export const DELETE = unknownOperation;
export const OPTIONS = unknownOperation;
