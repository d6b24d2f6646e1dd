import type { ToolCallResult } from "@/lib/connectors/runtime/types";
import type { RuntimeAnswer } from "@/lib/connectors/runtime/outcome";
import type { FetchedResponse } from "@/lib/connectors/runtime/http-fetch";
import { notStructuredMessage, shapeJsonAnswer, type AnswerShape } from "@/lib/connectors/runtime/shape-answer";

/**
 * An http tool's answer as MCP content: JSON → pretty JSON text (plus structuredContent for
 * an object), text → text, images and audio → their content types, anything else → an
 * embedded blob. A non-2xx status is an isError result with the status and a body excerpt.
 * A tool's `select` and `outputSchema` shape and check a JSON answer (shape-answer.ts); an
 * answer that does not fit its schema is an isError result naming the mismatch.
 */

const AS_RECEIVED: AnswerShape = { select: null, outputSchema: null };

const EXCERPT_CHARS = 1000;

/** The scrub of a connector without secret headers: nothing to remove, nothing to re-serialise. */
export const KEEP_TEXT = (text: string): string => text;

/** `scrub` removes secrets from any text that goes back to the caller. */
export function responseToAnswer(response: FetchedResponse, scrub: (text: string) => string, shape: AnswerShape = AS_RECEIVED): RuntimeAnswer {
  const mime = response.contentType.split(";")[0].trim().toLowerCase();
  if (response.status < 200 || response.status > 299) {
    const text = isTextual(mime) || mime === "" ? decodeText(response) : `(${response.body.length} bytes of ${mime})`;
    const excerpt = text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
    const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
    return { result: textResult(scrub(excerpt.trim() ? `${status}: ${excerpt}` : status), true), outcome: "isError" };
  }
  if (isJson(mime) && response.body.length > 0) {
    const json = jsonAnswer(decodeText(response), scrub, shape);
    if (json) return json;
  }
  // The SDK client refuses a successful answer without structuredContent from a tool that declares a schema.
  if (shape.outputSchema) return { result: textResult(notStructuredMessage(), true), outcome: "isError" };
  return { result: successContent(response, mime, scrub), outcome: "ok" };
}

/** A JSON answer shaped and checked; null when the body is not JSON after all. */
function jsonAnswer(text: string, scrub: (text: string) => string, shape: AnswerShape): RuntimeAnswer | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null; // declared JSON but is not: still worth showing as text
  }
  const shaped = shapeJsonAnswer(value, shape);
  if (!shaped.ok) return { result: textResult(scrub(shaped.message), true), outcome: "isError" };
  const result = textResult(scrub(JSON.stringify(shaped.value ?? null, null, 2)));
  if (shaped.structured) result.structuredContent = scrubbedObject(shaped.structured, scrub);
  return { result, outcome: "ok" };
}

function successContent(response: FetchedResponse, mime: string, scrub: (text: string) => string): ToolCallResult {
  if (response.body.length === 0) return textResult(`HTTP ${response.status}: empty response`);
  if (isTextual(mime) || mime === "") return textResult(scrub(decodeText(response)));
  const data = response.body.toString("base64");
  if (mime.startsWith("image/")) return { content: [{ type: "image", data, mimeType: mime }] };
  if (mime.startsWith("audio/")) return { content: [{ type: "audio", data, mimeType: mime }] };
  return { content: [{ type: "resource", resource: { uri: response.url.href, mimeType: mime, blob: data } }] };
}

/** The object with secrets scrubbed; the original when scrubbing would break its JSON. */
function scrubbedObject(value: object, scrub: (text: string) => string): Record<string, unknown> {
  if (scrub === KEEP_TEXT) return value as Record<string, unknown>;
  const text = JSON.stringify(value);
  const clean = scrub(text);
  if (clean === text) return value as Record<string, unknown>;
  try {
    return JSON.parse(clean) as Record<string, unknown>;
  } catch {
    return { redacted: "[redacted]" };
  }
}

function textResult(text: string, isError = false): ToolCallResult {
  return isError ? { content: [{ type: "text", text }], isError: true } : { content: [{ type: "text", text }] };
}

function isJson(mime: string): boolean {
  return mime === "application/json" || mime.endsWith("+json");
}

function isTextual(mime: string): boolean {
  return (
    mime.startsWith("text/") ||
    isJson(mime) ||
    mime.endsWith("+xml") ||
    ["application/xml", "application/javascript", "application/x-www-form-urlencoded", "application/yaml", "application/x-yaml"].includes(mime)
  );
}

function decodeText(response: FetchedResponse): string {
  const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(response.contentType)?.[1] ?? "utf-8";
  try {
    return new TextDecoder(charset).decode(response.body);
  } catch {
    return new TextDecoder("utf-8").decode(response.body); // an unknown charset label
  }
}
