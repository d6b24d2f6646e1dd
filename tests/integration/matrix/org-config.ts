import { db } from "@/lib/db/client";
import { orgConfigEndpoints as e } from "@/lib/org-config/endpoints";
import type { MatrixCase, MatrixTarget } from "@/tests/integration/matrix/types";

/** Configuration as code: an outsider's export, plan, apply and secret are a missing org's. */

const onOrg = (suffix: string, body?: unknown) => async (t: { org: { id: string } }): Promise<MatrixTarget> => ({
  path: `/api/v1/orgs/${t.org.id}${suffix}`,
  missingPath: `/api/v1/orgs/org_missing_000${suffix}`,
  body,
  snapshot: async () => ({
    roles: await db().mcpRole.findMany({ where: { orgId: t.org.id } }),
    secrets: await db().orgSecret.findMany({ where: { orgId: t.org.id } }),
    events: await db().auditEvent.count({ where: { orgId: t.org.id } }),
  }),
});

const DOCUMENT = { roles: [{ name: "intruder" }] };

export const orgConfigCases: MatrixCase[] = [
  { endpoint: e.getOrgConfig, setup: onOrg("/config"), outsiders: ["otherOrg", "member"] },
  { endpoint: e.planOrgConfig, setup: onOrg("/config/plan", DOCUMENT), outsiders: ["otherOrg", "member"] },
  { endpoint: e.applyOrgConfig, setup: onOrg("/config/apply", DOCUMENT), outsiders: ["otherOrg", "member"] },
  { endpoint: e.setOrgSecret, setup: onOrg("/secrets/TOKEN", { value: "v" }), outsiders: ["otherOrg", "member"] },
];
