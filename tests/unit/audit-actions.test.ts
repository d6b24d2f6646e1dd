import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AUDIT_ACTION_NAMES, isAuditAction } from "@/lib/audit/actions";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { AuditQuery } from "@/lib/audit/schemas";
import { buildOpenApiDocument } from "@/lib/openapi/document";

/**
 * The typed list of audit actions (lib/audit/actions.ts) is the one every writer uses and every
 * reader offers: a writer with an action outside it does not compile (the @ts-expect-error below
 * fails `tsc` the day that stops being true), no list entry is dead, and the API's filter and
 * its OpenAPI document take exactly the list — so every action the product writes can be filtered.
 */

const LIB = path.join(process.cwd(), "lib");

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Action literals as writers spell them: `action: "x"`, `action: c ? "x" : "y"`, `audited(ctx, "x"`, `_ACTION = "x"`. */
function writtenActions(): Map<string, string> {
  const found = new Map<string, string>();
  const patterns = [/\baction: ([^,}\n]+)/g, /\baudited\(\w+, ("[^"]+")/g, /_ACTION = ("[^"]+")/g];
  for (const file of sourceFiles(LIB)) {
    if (file.endsWith(path.join("audit", "actions.ts"))) continue;
    const text = fs.readFileSync(file, "utf8");
    for (const pattern of patterns) {
      for (const match of text.matchAll(pattern)) {
        for (const literal of match[1].matchAll(/"([a-z_]+(?:\.[a-z_]+)+)"/g)) found.set(literal[1], path.relative(process.cwd(), file));
      }
    }
  }
  return found;
}

// Never called: it exists so that `tsc --noEmit` (part of `npm test`) proves the type refuses an unknown action.
export function writesAnUnknownAction() {
  // @ts-expect-error "connector.renamed" is not an audit action
  return recordAuditEvent({ kind: "instance" }, { orgId: null, action: "connector.renamed", targetType: "connector", targetId: null });
}

describe("audit actions: one typed list", () => {
  it("every action a writer in lib/ spells is in the list", () => {
    const written = writtenActions();
    expect(written.size).toBeGreaterThan(40);
    expect([...written].filter(([action]) => !isAuditAction(action))).toEqual([]);
  });

  it("every action in the list is written somewhere in lib/ (no dead entries)", () => {
    const written = writtenActions();
    expect(AUDIT_ACTION_NAMES.filter((action) => !written.has(action))).toEqual([]);
  });

  it("the API's action filter and its OpenAPI document take exactly the list", () => {
    expect(AuditQuery.safeParse({ action: "oauth_app.allow" }).success).toBe(true);
    expect(AuditQuery.safeParse({ action: "connector.renamed" }).success).toBe(false);
    const document = buildOpenApiDocument() as any;
    const audit = document.paths["/orgs/{orgId}/audit"].get;
    const parameter = audit.parameters.find((p: { name: string }) => p.name === "action");
    expect(parameter.schema.enum).toEqual(AUDIT_ACTION_NAMES);
  });

  it("every audit row in lib/ is written by lib/audit's writers, which take the typed action (no other insert into the log)", () => {
    const direct = sourceFiles(LIB)
      .filter((file) => !file.includes(`${path.sep}audit${path.sep}`))
      .filter((file) => /auditEvent\.(create|createMany|upsert)\(|INSERT INTO audit_events/i.test(fs.readFileSync(file, "utf8")))
      .map((file) => path.relative(process.cwd(), file));
    expect(direct).toEqual([]);
  });
});
