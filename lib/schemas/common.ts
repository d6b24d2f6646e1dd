import { z } from "zod";
import "@/lib/schemas/plain-messages";

/** Building blocks shared by every domain's request schemas. */

/** Names of orgs, workspaces, connectors, servers, roles, keys…; forms give their inputs these maxLengths. */
export const NAME_MAX_LENGTH = 200;
export const SLUG_MAX_LENGTH = 64;

export const Slug = z
  .string()
  .min(1)
  .max(SLUG_MAX_LENGTH)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "Use lowercase letters, digits and single hyphens.");

export const Name = z.string().trim().min(1, "Must not be empty.").max(NAME_MAX_LENGTH);


export const Id = z.string().min(1).max(128);

export const OrgRole = z.enum(["owner", "admin", "member"]);

export const Markdown = z.string().max(200_000);

/**
 * How deeply free-form JSON may nest (request bodies, tool input schemas, fetchConfig). Deeper
 * values overflow the stack of recursive consumers (Prisma's JSON serialization, validators).
 */
export const MAX_JSON_DEPTH = 64;

/** True when `value` nests objects/arrays more than `max` levels deep (checked without recursion). */
export function jsonDeeperThan(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== "object") continue;
    if (depth > max) return true;
    for (const child of Object.values(current)) if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
  }
  return false;
}

/** A JSON object of at most MAX_JSON_DEPTH levels (free-form data that is stored as it is). */
export const BoundedJsonObject = z
  .record(z.string(), z.unknown())
  .refine((value) => !jsonDeeperThan(value), `Nested more than ${MAX_JSON_DEPTH} levels deep.`);
