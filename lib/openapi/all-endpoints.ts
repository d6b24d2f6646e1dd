import type { Endpoint } from "@/lib/api/endpoint";
import { orgEndpoints } from "@/lib/orgs/endpoints";

/** Every endpoint of the admin API; the OpenAPI document and the contract tests walk this list. */
export function allEndpoints(): Endpoint[] {
  return [orgEndpoints].flatMap((group) => Object.values(group) as Endpoint[]);
}
