import { z } from "zod";

/** Tool descriptions and input schemas, shared by the v1 and v2 servers. */

export const SUMMARIZE = {
  description: "Summarize a document. Pass file_uri for a workspace file (files://…), or text inline.",
  inputSchema: z.object({
    file_uri: z.string().optional().describe("A URI the host resolves, e.g. files://fl_abc123"),
    text: z.string().optional().describe("The content itself, when the host cannot read files by URI"),
  }),
};

export const LIST_FILES = {
  description: "List the workspace files this server can read, optionally by exact MIME type and tags (every tag must match).",
  inputSchema: z.object({
    mimeType: z.string().optional(),
    tags: z.array(z.string()).optional(),
  }),
};

export const HOST_INFO = {
  description: "Debug: the protocol version and the host-resources capability this connection sees.",
  inputSchema: z.object({}),
};

export const HOST_REQUEST = {
  description: "Debug: send one raw request (e.g. ai.nimblebrain/resources/read) to the host and return its answer or error.",
  inputSchema: z.object({ method: z.string(), params: z.record(z.string(), z.unknown()).optional() }),
};

/** Any result: host_request reports what came back, whatever its shape. */
export const ANY_RESULT = z.looseObject({});
