import type http from "node:http";
import { processState } from "../../../process-state";

/**
 * Where the Next.js server's module instance leaves its MCP handler for scripts/serve.ts to
 * call (lib/mcp/serve/node-adapter/serve-node.ts). No imports beyond node's types and
 * lib/process-state.ts, which imports nothing (relative, as scripts/serve.ts loads it): serve.ts
 * loads this file outside the Next.js bundle, and must not load a second copy of lib/ with it.
 */
export type NodeMcpHandler = (req: http.IncomingMessage, res: http.ServerResponse) => boolean;

const slot = processState<{ switchboardNodeMcp?: NodeMcpHandler }>();

export function setNodeMcpHandler(handler: NodeMcpHandler | undefined): void {
  slot.switchboardNodeMcp = handler;
}

/** The registered handler, if any; it returns true when it took the request. */
export function nodeMcpHandler(): NodeMcpHandler | undefined {
  return slot.switchboardNodeMcp;
}
