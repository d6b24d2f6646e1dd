import type { Endpoint } from "@/lib/api/endpoint";
import type { Tenant } from "@/tests/helpers/factories";

/**
 * One row of the cross-tenant matrix (cross-tenant.test.ts): an endpoint that takes an id,
 * how to make its object inside a tenant, and which outsiders must get 404 for it.
 *
 * - "otherOrg": an owner of a different organization;
 * - "otherWorkspace": a member of another workspace of the same organization (for objects
 *   that live in a workspace);
 * - "member": a plain org member of the same organization where an admin is needed.
 */
export type Outsider = "otherOrg" | "otherWorkspace" | "member";

export interface MatrixTarget {
  /** The request path with real ids, e.g. `/api/v1/orgs/${t.org.id}`. */
  path: string;
  /** The same path with the object's id replaced by an id that never existed. */
  missingPath: string;
  /** A valid body for write methods. */
  body?: unknown;
  /** Reads the row(s) the request would change, to prove an outsider changed nothing. */
  snapshot: () => Promise<unknown>;
}

export interface MatrixCase {
  endpoint: Endpoint;
  setup: (t: Tenant) => Promise<MatrixTarget>;
  outsiders: Outsider[];
}
