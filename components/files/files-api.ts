import type { FileView } from "@/lib/files/file-view";

/**
 * The browser's reads of the files JSON API (/api/v1, same origin: the session cookie is the
 * credential): content and previews. Writes go through the page's server actions
 * (components/files/file-writes.tsx); only uploads stream to the API (upload-request.ts). Every failure becomes an Error whose message a person can act on, built from
 * the problem+json answer.
 */

export type { FileView };
export type Visibility = FileView["visibility"];

interface Problem {
  title?: string;
  detail?: string;
  errors?: { path?: string; message?: string }[];
}

function parseProblem(text: string): Problem {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" ? (value as Problem) : {};
  } catch {
    return {};
  }
}

/** What went wrong, in words: the problem's detail and field errors, or a fallback per status. */
export function problemMessage(status: number, bodyText: string, retryAfter?: string | null): string {
  const problem = parseProblem(bodyText);
  const fields = (problem.errors ?? [])
    .map((e) => (e.path && e.path !== "(body)" ? `${e.path}: ${e.message}` : e.message))
    .filter(Boolean)
    .join("; ");
  const detail = [problem.detail, fields].filter(Boolean).join(" ");
  switch (true) {
    case status === 0:
      return "The connection to the server was lost. Check your network and try again.";
    case status === 401:
      return "Your session has ended. Sign in again, then retry.";
    case status === 404:
      return "It no longer exists, or you can no longer see it. Reload the page.";
    case status === 413:
      return `Too large. ${detail || "The file is larger than the server accepts."}`;
    case status === 429:
      return `Too many requests. Try again${retryAfter ? ` in ${retryAfter} s` : " shortly"}.`;
    case status >= 500:
      return detail || "The server could not finish the request. Try again shortly.";
    default:
      return detail || problem.title || `The request failed (HTTP ${status}).`;
  }
}

/**
 * A problem's field errors keyed by their dotted path (`path`, `config.baseUrl`), the first
 * message of each: the shape of ActionResult.fieldErrors (app/(admin)/_lib/run-action.ts builds
 * it the same way from the same `errors`), so a form puts each under its field.
 */
export function problemFieldErrors(bodyText: string): Record<string, string> {
  const fieldErrors: Record<string, string> = {};
  for (const { path, message } of parseProblem(bodyText).errors ?? []) {
    if (path && path !== "(body)" && message) fieldErrors[path] ??= message;
  }
  return fieldErrors;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The problem's field errors (problemFieldErrors), for a form that shows them at their fields. */
    readonly fieldErrors: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

async function send(path: string, init: RequestInit): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(path, { credentials: "same-origin", ...init });
  } catch {
    throw new ApiError(0, problemMessage(0, ""));
  }
  if (!response.ok) throw new ApiError(response.status, problemMessage(response.status, await response.text(), response.headers.get("retry-after")));
  return response;
}

export const contentUrl = (fileId: string) => `/api/v1/files/${encodeURIComponent(fileId)}/content`;

/**
 * The first `maxBytes` of a file as text (the download is cut off there, not read whole).
 * Invalid UTF-8 shows as U+FFFD rather than failing.
 */
export async function readTextHead(fileId: string, maxBytes: number, signal?: AbortSignal): Promise<{ text: string; truncated: boolean }> {
  const response = await send(contentUrl(fileId), { signal });
  const reader = response.body?.getReader();
  if (!reader) return { text: "", truncated: false };
  const decoder = new TextDecoder("utf-8");
  let text = "";
  let read = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = maxBytes - read;
    text += decoder.decode(value.subarray(0, room), { stream: true });
    read += Math.min(value.byteLength, room);
    if (value.byteLength > room || read >= maxBytes) {
      truncated = value.byteLength > room || !(await reader.read()).done;
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  // A character cut in half at the limit is dropped rather than shown as U+FFFD.
  return { text: truncated ? text : text + decoder.decode(), truncated };
}
