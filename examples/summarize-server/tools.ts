import { createHash } from "node:crypto";
import {
  blobBytes,
  HostResourcesError,
  type HostResources,
  type HostResourcesFilter,
  isTextContents,
  toHostResourcesError,
} from "@switchboard/host-resources";

/**
 * The example's tools, written once against `HostResources` and registered by both the SDK v1
 * and the SDK v2 server (v1.ts, v2.ts). Results are JSON objects, sent as text content and as
 * structuredContent; failures are results with `isError: true` whose object says why.
 */

export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: "text"; text: string }>;
  structuredContent: Record<string, unknown>;
  isError?: boolean;
}

function ok(body: Record<string, unknown>): ToolResult {
  return { content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: body };
}

function failed(body: Record<string, unknown>): ToolResult {
  return { ...ok(body), isError: true };
}

const HEAD_LINES = 20;

/** The "summary" of a text: its size, line and word counts, sha256 and first lines. */
function summaryOf(text: string): Record<string, unknown> {
  const bytes = Buffer.from(text, "utf8");
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === "") lines.pop();
  return {
    bytes: bytes.length,
    lines: lines.length,
    words: text.split(/\s+/).filter(Boolean).length,
    sha256: createHash("sha256").update(bytes).digest("hex"),
    head: lines.slice(0, HEAD_LINES).join("\n"),
    truncated: lines.length > HEAD_LINES,
  };
}

/** A host error as a tool result that names its code (and its typed class). */
export function hostErrorResult(e: unknown): ToolResult {
  const typed = toHostResourcesError(e);
  if (typed instanceof HostResourcesError) {
    return failed({ error: typed.message, code: typed.code, type: typed.name, ...(typed.data === undefined ? {} : { data: typed.data }) });
  }
  throw e;
}

export interface SummarizeArgs {
  file_uri?: string;
  text?: string;
}

/**
 * Seed 000 "Writing a tool that uses it": accept a URI, accept inline content as the fallback,
 * and let the capability decide which one is used.
 */
export async function summarize(h: HostResources, args: SummarizeArgs): Promise<ToolResult> {
  if (args.file_uri && h.available) {
    let result;
    try {
      result = await h.read(args.file_uri);
    } catch (e) {
      return hostErrorResult(e);
    }
    const content = result.contents[0];
    if (!content) return failed({ error: "The host returned no content for this URI.", uri: args.file_uri });
    if (!isTextContents(content)) {
      const bytes = blobBytes(content);
      return failed({
        error: "summarize reads text files. This file came back as a binary blob.",
        blob: { uri: content.uri, mimeType: content.mimeType ?? null, bytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") },
      });
    }
    return ok({ source: "file", uri: content.uri, mimeType: content.mimeType ?? null, ...summaryOf(content.text) });
  }
  if (args.file_uri) return failed({ error: "This host cannot read files by URI. Pass the content as `text`." });
  if (typeof args.text !== "string") return failed({ error: "Pass file_uri (a workspace file) or text (the content inline)." });
  return ok({ source: "inline", ...summaryOf(args.text) });
}

export interface ListFilesArgs {
  mimeType?: string;
  tags?: string[];
}

/** Lists the host's files the tool can read (ai.nimblebrain/resources/list), optionally filtered. */
export async function listFiles(h: HostResources, args: ListFilesArgs): Promise<ToolResult> {
  if (!h.listAvailable) return failed({ error: "This host cannot list its files." });
  const filter: HostResourcesFilter = {};
  if (args.mimeType !== undefined) filter.mimeType = args.mimeType;
  if (args.tags !== undefined) filter.tags = args.tags;
  try {
    const { resources } = await h.list(Object.keys(filter).length ? filter : undefined);
    return ok({ count: resources.length, resources });
  } catch (e) {
    return hostErrorResult(e);
  }
}

/** --debug-tools: what this connection looks like from the server (capabilities, era). */
export function hostInfo(h: HostResources, clientCapabilities: object | undefined): ToolResult {
  return ok({
    protocolVersion: h.protocolVersion ?? null,
    available: h.available,
    listAvailable: h.listAvailable,
    supportsFiles: h.supportsScheme("files"),
    capability: h.capability,
    clientCapabilities: clientCapabilities ?? null,
  });
}

/** --debug-tools: sends one raw request to the host and reports the answer or the error as received. */
export async function hostRequest(send: () => Promise<unknown>): Promise<ToolResult> {
  try {
    return ok({ result: await send() });
  } catch (e) {
    const err = e as { code?: unknown; message?: unknown; data?: unknown };
    if (typeof err?.code !== "number") throw e;
    const typed = toHostResourcesError(e);
    return failed({ error: { code: err.code, message: err.message, data: err.data ?? null, type: (typed as Error).name } });
  }
}
