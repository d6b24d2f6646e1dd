import { z } from "zod";
import { endpoint } from "@/lib/api/endpoint";
import { Id } from "@/lib/schemas/common";
import { UsageQuery, UsageReport } from "@/lib/usage/schemas";

const tag = "Usage";

export const usageEndpoints = {
  orgUsage: endpoint({
    operationId: "getOrgUsage",
    method: "GET",
    path: "/orgs/{orgId}/usage",
    tag,
    summary: "Tool call usage of an organization: calls, errors and p50/p95 latency over time and per server, connector, tool and user (owners and admins)",
    params: z.object({ orgId: Id }),
    query: UsageQuery,
    response: UsageReport,
  }),
  workspaceUsage: endpoint({
    operationId: "getWorkspaceUsage",
    method: "GET",
    path: "/workspaces/{workspaceId}/usage",
    tag,
    summary: "Tool call usage of one workspace, as for the organization (owners and admins of its org)",
    params: z.object({ workspaceId: Id }),
    query: UsageQuery,
    response: UsageReport,
  }),
};
