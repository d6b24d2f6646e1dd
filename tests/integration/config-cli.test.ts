import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { api } from "@/tests/helpers/api";
import { createTenant } from "@/tests/helpers/factories";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";
import { runConfigCli } from "@/scripts/lib/config-cli";

/** `switchboard config export|plan|apply` against the route handlers over real HTTP. */

let app: RouteServer;
let dir: string;
beforeAll(async () => {
  app = await startRouteServer();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-config-cli-"));
});
afterAll(async () => {
  await app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function cli(token: string, ...argv: string[]) {
  let out = "";
  let err = "";
  const code = await runConfigCli(argv, { env: { SWITCHBOARD_URL: app.origin, SWITCHBOARD_TOKEN: token }, out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

describe("switchboard config", () => {
  it("exports, plans (exit 2 on drift, the plan as a diff) and applies an organization's file", async () => {
    const t = await createTenant();
    const res = await api(t.owner.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
      type: "http",
      name: "CRM",
      config: { baseUrl: "https://crm.example.com" },
      tools: [{ name: "list_customers", request: { method: "GET", path: "/customers" } }],
    });
    expect(res.status, res.text).toBe(201);
    const file = path.join(dir, `${t.org.slug}.yaml`);

    const exported = await cli(t.owner.token, "config", "export", "--org", t.org.slug, "-f", file);
    expect(exported, exported.err).toMatchObject({ code: 0 });
    expect(fs.readFileSync(file, "utf8")).toContain("slug: crm");

    const clean = await cli(t.owner.token, "config", "plan", "--org", t.org.slug, "-f", file);
    expect(clean).toMatchObject({ code: 0, out: expect.stringContaining("No changes") });

    const doc = parse(fs.readFileSync(file, "utf8"));
    doc.connectors[0].tools[0].description = "Every customer";
    doc.roles = [{ name: "support", tools: [{ connector: "crm", tool: "list_customers" }] }];
    fs.writeFileSync(file, stringify(doc));
    const drift = await cli(t.owner.token, "config", "plan", "--org", t.org.slug, "-f", file);
    expect(drift.code, drift.err).toBe(2);
    expect(drift.out).toContain('~ connector crm\n    tools.list_customers.description: "" → "Every customer"');
    expect(drift.out).toContain("+ role support");

    const applied = await cli(t.owner.token, "config", "apply", "--org", t.org.slug, "-f", file);
    expect(applied, applied.err).toMatchObject({ code: 0, out: expect.stringContaining("Applied.") });
    expect(await cli(t.owner.token, "config", "plan", "--org", t.org.slug, "-f", file)).toMatchObject({ code: 0 });

    const unknown = await cli(t.owner.token, "config", "plan", "--org", "no-such-org", "-f", file);
    expect(unknown).toMatchObject({ code: 1, err: expect.stringContaining('No organization "no-such-org"') });
  });

  it("answers --help on every command through the bin entry", () => {
    for (const args of [["--help"], ["config", "--help"], ["config", "export", "--help"], ["config", "plan", "--help"], ["config", "apply", "--help"]]) {
      const run = spawnSync(process.execPath, [path.join(process.cwd(), "bin", "switchboard.mjs"), ...args], { encoding: "utf8", timeout: 120_000 });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toContain("Usage: switchboard");
    }
  }, 300_000);
});
