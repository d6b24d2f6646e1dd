import { ProtocolError, ResourceNotFoundError } from "@modelcontextprotocol/client";
import type { CallStep } from "@/lib/connectors/pipeline/call-context";
import { currentAccess } from "@/lib/mcp/surface/recheck-access";

const INVALID_PARAMS = -32602;

/**
 * The access step of the call pipeline, for what a stateful session routes from a catalog it
 * may hold since before a change (prompts/get, an upstream's resources/read): the caller's
 * current view of the server is read again (a cached read while nothing changed) and replaces
 * the one the call came with; a connector removed from the server, one the caller's role no
 * longer grants, or a prompt the connector no longer has is not found, exactly like one that
 * never existed (lib/mcp/surface/recheck-access.ts says why). tools/call needs none: its tool
 * comes from the surface read on every request.
 */
export const recheckAccess: CallStep = async (ctx, next) => {
  const now = await currentAccess(ctx.caller, ctx.view, ctx.connector.id);
  if (ctx.kind === "resources/read") {
    if (!now) throw new ResourceNotFoundError(ctx.names.upstream);
  } else if (!now || (ctx.kind === "prompts/get" && !now.connector.prompts.some((p) => p.name === ctx.names.upstream))) {
    throw new ProtocolError(INVALID_PARAMS, `Unknown ${ctx.kind === "prompts/get" ? "prompt" : "tool"}: ${ctx.names.exposed}`);
  }
  ctx.view = now.view;
  ctx.connector = now.connector;
  return next();
};
