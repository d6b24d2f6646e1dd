import { z } from "zod";
import { OrgConfigDocument } from "@/lib/org-config/schemas";

/**
 * The JSON Schema of the configuration document, from its zod schema (what a document may be, as
 * written). The document's own definition is the root, so editors read its properties at once.
 */
export function configJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(OrgConfigDocument, { io: "input", unrepresentable: "any", target: "draft-2020-12" }) as Record<string, unknown>;
  const { $defs = {}, $ref: _ref, ...rest } = schema as { $defs?: Record<string, object>; $ref?: string };
  const { OrgConfigDocument: root, ...others } = $defs;
  return { ...rest, title: "Switchboard organization configuration", ...root, $defs: others };
}
