import { z } from "zod";

/** Building blocks shared by every domain's request schemas. */

export const Slug = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "Use lowercase letters, digits and single hyphens.");

export const Name = z.string().trim().min(1, "Must not be empty.").max(200);

export const Id = z.string().min(1).max(128);

export const OrgRole = z.enum(["owner", "admin", "member"]);

export const Markdown = z.string().max(200_000);
