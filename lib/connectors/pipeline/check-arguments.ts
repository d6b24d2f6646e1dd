import { assertStorableArguments } from "@/lib/connectors/runtime/check-argument-text";
import { failed } from "@/lib/connectors/runtime/outcome";
import { invalidArgumentsMessage } from "@/lib/connectors/runtime/validate-arguments";
import type { CallAnswer, CallStep } from "@/lib/connectors/pipeline/call-context";

/**
 * The argument steps of the call pipeline. `refuseUnstorableArguments` runs before the audit:
 * arguments the audit log could not store (U+0000, lone surrogates) are refused
 * (InvalidToolArgumentsError, JSON-RPC -32602) and nothing is written or sent.
 * `checkToolArguments` runs after the audit's start: arguments that do not fit the tool's
 * inputSchema are an isError result the model can read, audited as an error and never sent.
 */

export const refuseUnstorableArguments: CallStep = (ctx, next) => {
  if (ctx.args) assertStorableArguments(ctx.args);
  return next();
};

export const checkToolArguments: CallStep = async <R>(ctx: Parameters<CallStep>[0], next: () => Promise<CallAnswer<R>>) => {
  const invalid = ctx.tool ? invalidArgumentsMessage(ctx.tool.inputSchema, ctx.args ?? {}) : null;
  if (!invalid) return next();
  return { ...failed(invalid), result: failed(invalid).result as R, notSent: true, durationMs: 0 };
};
