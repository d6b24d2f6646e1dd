import { isHostRequest, type SharedStep } from "@/lib/connectors/pipeline/call-context";
import { countHostResourcesRequest, countUpstreamCall } from "@/lib/ops/metrics";

/**
 * The metrics step of the call pipeline, in /api/metrics: a call upstream by connector type and
 * outcome (`switchboard_upstream_calls_total`); a host-resource request by operation and
 * outcome (`switchboard_host_resource_requests_total`), refusals of its budget included.
 */
export const countMetrics: SharedStep = async (ctx, next) => {
  const answer = await next();
  if (isHostRequest(ctx)) countHostResourcesRequest(ctx.kind === "host_resources/read" ? "read" : "list", answer.outcome === "ok" ? "ok" : "error");
  else countUpstreamCall(ctx.connector.type, answer.outcome);
  return answer;
};
