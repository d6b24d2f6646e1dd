import { describe, expect, it } from "vitest";
import type { Endpoint } from "@/lib/api/endpoint";
import { allEndpoints } from "@/lib/openapi/all-endpoints";
import { request } from "@/tests/helpers/api";
import { createApiKeyFor, createTenant, createWorkspace, makeMember, type Tenant } from "@/tests/helpers/factories";
import type { MatrixCase, Outsider } from "@/tests/integration/matrix/types";

/**
 * "404 missing or not visible to the caller (same body either way)": for every endpoint that
 * takes an id, each kind of outsider gets exactly the answer a missing id gets, and the row
 * is unchanged afterwards.
 */

const caseModules = import.meta.glob<Record<string, unknown>>("./matrix/*.ts", { eager: true });
const cases: MatrixCase[] = Object.values(caseModules).flatMap((module) =>
  Object.entries(module)
    .filter(([name]) => name.endsWith("Cases"))
    .flatMap(([, value]) => value as MatrixCase[]),
);

const endpointKey = (e: Endpoint) => `${e.method} ${e.path}`;
const takesId = (e: Endpoint) => /\{\w+\}/.test(e.path);

async function outsiderToken(kind: Outsider, t: Tenant): Promise<string> {
  if (kind === "member") return t.member.token;
  if (kind === "otherOrg") return (await createTenant()).owner.token;
  const other = await createWorkspace(t.org.id);
  const user = await makeMember({ orgId: t.org.id, workspaceId: other.id }, { role: "member", label: "other-ws" });
  return (await createApiKeyFor(user, { id: other.id, orgId: t.org.id })).token;
}

describe("cross-tenant matrix: another tenant's object is not found, exactly like a missing one", () => {
  it("covers every endpoint of the contract that takes an id", () => {
    const covered = new Set(cases.map((c) => endpointKey(c.endpoint)));
    const missing = allEndpoints().filter(takesId).map(endpointKey).filter((k) => !covered.has(k));
    expect(missing).toEqual([]);
  });

  for (const c of cases) {
    for (const outsider of c.outsiders) {
      it(`${endpointKey(c.endpoint)}: ${outsider} gets 404 with the missing-id body and changes nothing`, async () => {
        const tenant = await createTenant();
        const target = await c.setup(tenant);
        const token = await outsiderToken(outsider, tenant);
        const before = await target.snapshot();

        const answer = await request(c.endpoint.method, target.path, token, target.body);
        const missing = await request(c.endpoint.method, target.missingPath, tenant.owner.token, target.body);

        expect(answer.status).toBe(404);
        expect(missing.status).toBe(404);
        expect(answer.body).toEqual(missing.body);
        expect(await target.snapshot()).toEqual(before);
      });
    }
  }
});
