import type { CallStep } from "@/lib/connectors/pipeline/call-context";
import { countUpstreamCall } from "@/lib/ops/metrics";

/** The metrics step of the call pipeline: /api/metrics' upstream-calls counter, by connector type and outcome. */
export const countMetrics: CallStep = async (ctx, next) => {
  const answer = await next();
  countUpstreamCall(ctx.connector.type, answer.outcome);
  return answer;
};
