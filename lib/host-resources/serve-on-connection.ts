import { type Client, ProtocolError, type Transport } from "@modelcontextprotocol/client";
import { z } from "zod";
import { LIST_METHOD, READ_METHOD } from "@/packages/host-resources/src/protocol";
import { type HostResourcesClaim, type HostResourcesOperations, hostResourcesCapability, servesHostResources } from "@/lib/host-resources/capability";
import type { HostResourcesContext } from "@/lib/host-resources/context";
import { type HostResourcesWire, rewriteOutbound, type WireError } from "@/lib/host-resources/rewrite-outbound";
import { errorText, logger } from "@/lib/log";

/**
 * Serves ai.nimblebrain/resources/read and /list to an upstream server over our outbound
 * connection, on behalf of the connection's owner (seed 000 "Scope": the workspace of the
 * connection, the user the tool runs for). `attachHostResources` is the one place an
 * outbound connection is given the extension: the claim, the handlers and the wire rewrite.
 */

type Handler = (ctx: HostResourcesContext, params: unknown) => Promise<object>;

/**
 * What answers the extension's methods; throws errors carrying a numeric `code` and `data`.
 * An operation without a handler is neither claimed (its `enabled` is false) nor served.
 */
export interface HostResourcesHandlers {
  read?: Handler;
  list?: Handler;
}

/** The extension on one outbound connection, once attached. */
export interface HostResourcesAttachment {
  /** After connect: a connection that did not negotiate a 2025-era revision serves nothing. */
  connected(protocolVersion: string | null): void;
}

/**
 * Gives an unconnected `client`/`transport` pair the extension: the claim is made from the
 * handlers present, and the methods are registered from the claim; a connection that serves
 * no operation claims nothing at all.
 */
export function attachHostResources(
  client: Client,
  transport: Transport,
  owner: HostResourcesContext,
  handlers: HostResourcesHandlers | null,
): HostResourcesAttachment {
  const operations = handlers ? servedOperations(handlers) : null;
  if (!handlers || !operations || (!operations.read && !operations.list)) return { connected: () => undefined };
  const claim = hostResourcesCapability(operations);
  const wire = rewriteOutbound(transport, claim);
  serveHostResources(client, wire, { ...owner }, handlers, claim, () => servesHostResources(client.getNegotiatedProtocolVersion()));
  return {
    connected: (protocolVersion) => {
      if (!servesHostResources(protocolVersion)) stopServingHostResources(client);
    },
  };
}

/** Which operations `handlers` serve: the source of each operation's `enabled` in the claim. */
function servedOperations(handlers: HostResourcesHandlers): HostResourcesOperations {
  return { read: typeof handlers.read === "function", list: typeof handlers.list === "function" };
}

/**
 * Params are checked by the handlers themselves, which answer -32602 with the seed's error data;
 * the SDK's own validation would turn a bad param into an opaque -32603.
 */
const LooseParams = z.unknown();

const METHOD_NOT_FOUND = -32601;
const INTERNAL_ERROR = -32603;

/**
 * Registers on `client` the method of each operation `claimed` enables, and no other ("check
 * enabled on the specific operation": the claim and the served methods cannot disagree).
 * `served()` is asked on every request: only a 2025-era connection serves them (a 2026-07-28
 * upstream cannot send requests to us anyway).
 */
function serveHostResources(
  client: Client,
  wire: HostResourcesWire,
  owner: HostResourcesContext,
  handlers: HostResourcesHandlers,
  claimed: HostResourcesClaim,
  served: () => boolean,
): void {
  const entries: Array<[string, Handler | undefined]> = [
    [READ_METHOD, claimed.read.enabled ? handlers.read?.bind(handlers) : undefined],
    [LIST_METHOD, claimed.list.enabled ? handlers.list?.bind(handlers) : undefined],
  ];
  for (const [method, handle] of entries) {
    if (!handle) continue;
    client.setRequestHandler(method, { params: LooseParams }, async (params, ctx) => {
      if (!served()) throw new ProtocolError(METHOD_NOT_FOUND, `Method not found: ${method}`);
      try {
        return (await handle({ ...owner }, params)) as Record<string, unknown>;
      } catch (e) {
        const error = toWireError(e, method, owner);
        wire.rememberError(ctx.mcpReq.id, error);
        throw new ProtocolError(error.code, error.message, error.data);
      }
    });
  }
}

/** Stops serving the methods (a 2026-07-28 connection serves nothing). */
function stopServingHostResources(client: Client): void {
  client.removeRequestHandler(READ_METHOD);
  client.removeRequestHandler(LIST_METHOD);
}

/** The handler's own code and data; anything without a numeric code is an internal error. */
function toWireError(e: unknown, method: string, owner: HostResourcesContext): WireError {
  const err = e as { code?: unknown; message?: unknown; data?: unknown } | null;
  if (err && typeof err.code === "number" && Number.isInteger(err.code)) {
    const message = typeof err.message === "string" && err.message ? err.message : "Request failed";
    return err.data === undefined ? { code: err.code, message } : { code: err.code, message, data: err.data };
  }
  logger.error({ err: errorText(e), method, connectorId: owner.connectorId }, "host-resources handler failed");
  return { code: INTERNAL_ERROR, message: "Internal error" };
}
