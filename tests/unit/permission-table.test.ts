import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { renderPermissionTable, TABLE_END, TABLE_START } from "@/lib/permissions/render-table";
import { ACTIONS, CREDENTIAL_KINDS, kindAllows } from "@/lib/permissions/table";
import { credentialKinds, permits } from "@/lib/permissions/guards";
import type { Caller } from "@/lib/auth/caller";

/** The README states the policy the code enforces: its table is the rendering of lib/permissions/table.ts. */
describe("the permission table and the README", () => {
  it("README's 'What a key, an admin and an owner may do' holds exactly the rendered table (npm run permissions:readme)", () => {
    const readme = fs.readFileSync(path.resolve(import.meta.dirname, "../../README.md"), "utf8");
    const section = readme.slice(readme.indexOf("### What a key, an admin and an owner may do"));
    const inside = section.slice(section.indexOf(TABLE_START) + TABLE_START.length, section.indexOf(TABLE_END)).trim();
    expect(inside).toBe(renderPermissionTable());
    for (const action of ACTIONS) expect(inside).toContain(`\`${action}\``);
  });

  it("a pinned key and an OAuth token never do more than their role's key column allows", () => {
    const key = { id: "k", orgId: "o", workspaceId: "w", serverId: "s" };
    const pinned: Caller = { kind: "user", userId: "u", apiKey: key };
    const oauth: Caller = { kind: "user", userId: "u", apiKey: { ...key, serverId: null }, oauthClient: { clientId: "c", name: "App" } };
    for (const role of ["owner", "admin", "member"] as const) {
      expect(credentialKinds(pinned, role)).toEqual([`${role}_key`, "pinned_key"]);
      expect(credentialKinds(oauth, role)).toEqual([`${role}_key`, "oauth_token"]);
      for (const action of ACTIONS) {
        expect(permits(pinned, role, action)).toBe(kindAllows(`${role}_key`, action) && kindAllows("pinned_key", action));
        expect(permits(oauth, role, action)).toBe(kindAllows(`${role}_key`, action) && kindAllows("oauth_token", action));
      }
    }
  });

  it("a key capped at admin acts as an admin's key whatever its user's role", () => {
    const capped: Caller = { kind: "user", userId: "u", apiKey: { id: "k", orgId: "o", workspaceId: "w", serverId: null, maxRole: "admin" } };
    expect(credentialKinds(capped, "owner")).toEqual(["admin_key"]);
    expect(credentialKinds(capped, "member")).toEqual(["member_key"]);
    expect(permits(capped, "owner", "owners.manage")).toBe(false);
    expect(CREDENTIAL_KINDS).toHaveLength(9);
  });
});
