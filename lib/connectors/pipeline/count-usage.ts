import type { CallStep } from "@/lib/connectors/pipeline/call-context";
import { countCall } from "@/lib/usage/count-call";

/**
 * The usage step of the call pipeline: every call that got past the refusals is counted once
 * it has an answer, in the usage table and connector health (in memory, flushed in batches:
 * lib/usage/count-call.ts). A call refused before it was sent (arguments that do not fit the
 * tool) is usage, not a sign of the upstream's health (`notSent`).
 */
export const countUsage: CallStep = async (ctx, next) => {
  const answer = await next();
  countCall(ctx, answer);
  return answer;
};
