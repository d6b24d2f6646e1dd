import { logger } from "@/lib/log";
import { observeRequest } from "@/lib/ops/metrics";

/**
 * One answered request: a Prometheus observation plus one JSON access-log line. Only the route
 * template, method, status, duration and request id are logged — never headers, query strings
 * or bodies, which can carry credentials.
 */
export interface AnsweredRequest {
  /** Route template, e.g. "/api/v1/orgs/{orgId}" or "/mcp/{serverId}". */
  route: string;
  method: string;
  status: number;
  durationMs: number;
  requestId: string;
}

export function recordRequest({ route, method, status, durationMs, requestId }: AnsweredRequest): void {
  observeRequest(route, method, status, durationMs);
  logger.info({ requestId, method, route, status, durationMs: Math.round(durationMs * 10) / 10 }, "request");
}
