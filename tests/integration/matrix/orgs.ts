import { db } from "@/lib/db/client";
import { orgEndpoints as e } from "@/lib/orgs/endpoints";
import type { MatrixCase } from "@/tests/integration/matrix/types";

const orgTarget = (body?: unknown) => async (t: { org: { id: string } }) => ({
  path: `/api/v1/orgs/${t.org.id}`,
  missingPath: `/api/v1/orgs/org_missing_000`,
  body,
  snapshot: () => db().organization.findUnique({ where: { id: t.org.id } }),
});

export const orgCases: MatrixCase[] = [
  { endpoint: e.getOrg, setup: orgTarget(), outsiders: ["otherOrg"] },
  { endpoint: e.updateOrg, setup: orgTarget({ name: "Renamed" }), outsiders: ["otherOrg", "member"] },
  { endpoint: e.deleteOrg, setup: orgTarget(), outsiders: ["otherOrg", "member"] },
];
